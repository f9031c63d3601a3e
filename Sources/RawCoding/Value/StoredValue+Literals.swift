extension StoredValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension StoredValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension StoredValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension StoredValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension StoredValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: StoredValue...) { self = .array(elements) }
}

extension StoredValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, StoredValue)...) {
        self = .dictionary(StoredDictionary(elements))
    }
}
