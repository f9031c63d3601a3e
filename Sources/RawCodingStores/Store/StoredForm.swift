import Foundation
import RawCoding

/// How a value is held under a key: the store's own tree, or one of the forms the code this
/// library replaces wrote.
///
/// Every store reads every form, without configuration: a `@Stored` property adopted over
/// data an app already has reads it exactly, and reading never writes. The store's own tree is
/// tried first; only a payload that does not decode as `Value` that way is tried in the other
/// forms, so a `String` value is always the string itself, even one that looks like JSON.
///
/// | Form | Written by |
/// |---|---|
/// | ``native`` | this library; `[String: Any]` dictionaries and plain `UserDefaults` values |
/// | ``jsonText`` | a `RawCodable` wrapper for `@AppStorage`; Defaults, for a `Codable` value |
/// | ``jsonTextElements`` | Defaults, for arrays, sets and dictionaries of `Codable` values |
/// | ``propertyListData`` | `PropertyListEncoder` into a `Data` value (binary, its default) |
/// | ``xmlPropertyListData`` | `PropertyListEncoder` with `outputFormat = .xml` |
///
/// Writes are in the native form unless ``StoredWriting`` says otherwise.
public enum StoredForm: Sendable, Hashable, CaseIterable {
    /// The store's own tree, in its codec's representation: a struct is a dictionary.
    case native
    /// JSON text in a string, as `JSONEncoder` writes it with its default options (dates in
    /// seconds since 2001, data in Base64): `{"title":"Moby-Dick"}`, `"dark"` with its quotes.
    case jsonText
    /// An array or dictionary whose elements are each JSON text: `["{\"title\":\"Moby-Dick\"}"]`.
    /// Read at any depth of nested arrays and dictionaries; written one level deep.
    case jsonTextElements
    /// A binary property list in a `Data` value, as `PropertyListEncoder` writes by default.
    case propertyListData
    /// An XML property list in a `Data` value.
    case xmlPropertyListData
}

/// Which form a write takes (see ``StoredForm``).
///
/// ```swift
/// // The widget still reads the key with the old RawCodable snippet: keep writing JSON text.
/// @Stored("book", store: store, writing: .always(.jsonText)) var book: Book? = nil
/// ```
public enum StoredWriting: Sendable, Hashable {
    /// The store's own tree. A payload in another form is set aside before it is replaced
    /// (``KeyValueStore/setAsidePayloads()``), so nothing is lost. The default.
    case native
    /// The form the key holds, so a reader that knows only that form reads the new value;
    /// the native form when the key holds nothing.
    case formFound
    /// Always `form`, whatever the key holds; a payload in another form is set aside first.
    case always(StoredForm)

    /// The form a write takes over a payload found in `found` (`nil`: the key holds nothing).
    func form(over found: StoredForm?) -> StoredForm {
        switch self {
        case .native: .native
        case .formFound: found ?? .native
        case .always(let form): form
        }
    }
}

/// A decoded value and the form it was found in.
struct FormDecoding<Value> {
    var decoded: StoredDecoding<Value>
    var form: StoredForm
}

extension StoredForm {
    /// The codec JSON text is read and written with: `JSONEncoder`'s defaults.
    private static var json: JSONCodec { JSONCodec() }

    /// Decodes `tree` as `Value`: with `codec` first (the native form), then, if that fails, in
    /// the other form the tree's shape says it may be in.
    /// - Throws: The native form's error, unless the tree is clearly in another form (a JSON
    ///   container in a string, property-list bytes in data), whose own error is more telling.
    static func decode<Value: Decodable>(
        _ type: Value.Type, fromTree tree: StoredValue, codec: any Codec, defaultValue: Value?
    ) throws(RawCodingError) -> FormDecoding<Value> {
        let nativeError: RawCodingError
        do {
            return FormDecoding(
                decoded: try codec.decodeStored(type, fromTree: tree, defaultValue: defaultValue), form: .native)
        } catch {
            nativeError = error
        }
        switch tree {
        case .string(let text):
            let parsed: StoredValue
            do {
                parsed = try json.readTree(from: Data(text.utf8))
            } catch {
                // Not JSON text: the string was meant as a string, and the native error says why
                // it is not a `Value`.
                throw nativeError
            }
            return try decodeOther(type, tree: parsed, codec: json, form: .jsonText, defaultValue: defaultValue) {
                parsed.isContainer ? $0 : nativeError
            }
        case .data(let bytes):
            let form: StoredForm
            if bytes.starts(with: Array("bplist".utf8)) {
                form = .propertyListData
            } else if bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8)) {
                form = .xmlPropertyListData
            } else {
                throw nativeError
            }
            // Bytes with a property list's signature that do not read: the reader says why.
            // (The reader takes either layout, whatever the codec writes.)
            let propertyList = PropertyListCodec(format: .binary)
            let parsed = try propertyList.readTree(from: bytes)
            return try decodeOther(
                type, tree: parsed, codec: propertyList, form: form, defaultValue: defaultValue
            ) { $0 }
        case .array, .dictionary:
            guard let parsed = parsingElements(of: tree) else { throw nativeError }
            return try decodeOther(
                type, tree: parsed, codec: json, form: .jsonTextElements, defaultValue: defaultValue
            ) { _ in nativeError }
        default:
            throw nativeError
        }
    }

    /// Decodes `tree`, read from another form, with that form's codec; on failure throws what
    /// `failure` chooses between that error and the native one.
    private static func decodeOther<Value: Decodable>(
        _ type: Value.Type, tree: StoredValue, codec: any Codec, form: StoredForm, defaultValue: Value?,
        failure: (RawCodingError) -> RawCodingError
    ) throws(RawCodingError) -> FormDecoding<Value> {
        do {
            return FormDecoding(
                decoded: try codec.decodeStored(type, fromTree: tree, defaultValue: defaultValue), form: form)
        } catch {
            throw failure(error)
        }
    }

    /// `tree` with each string in its arrays and dictionaries, at any depth, read as JSON
    /// text; `nil` if it has no string, or one that is not JSON text (then it is not this form).
    private static func parsingElements(of tree: StoredValue) -> StoredValue? {
        var found = false
        func parse(_ tree: StoredValue) -> StoredValue? {
            switch tree {
            case .string(let text):
                found = true
                do {
                    return try json.readTree(from: Data(text.utf8))
                } catch {
                    // A string that is not JSON text: the tree is not in this form.
                    return nil
                }
            case .array(let elements):
                var parsed: [StoredValue] = []
                parsed.reserveCapacity(elements.count)
                for element in elements {
                    guard let element = parse(element) else { return nil }
                    parsed.append(element)
                }
                return .array(parsed)
            case .dictionary(let dictionary):
                var parsed: [(String, StoredValue)] = []
                parsed.reserveCapacity(dictionary.count)
                for (key, value) in dictionary {
                    guard let value = parse(value) else { return nil }
                    parsed.append((key, value))
                }
                return .dictionary(StoredDictionary(parsed))
            default:
                return tree
            }
        }
        guard let parsed = parse(tree), found else { return nil }
        return parsed
    }

    /// `value` encoded in this form, keeping `unknownKeys` (from a payload in this form, or
    /// the native one); `codec` is the store's, for the native form.
    func encode<Value: Encodable>(
        _ value: Value, keeping unknownKeys: StoredUnknownKeys, codec: any Codec
    ) throws(RawCodingError) -> StoredValue {
        switch self {
        case .native:
            return try codec.encodeStoredTree(value, keeping: unknownKeys)
        case .jsonText:
            return .string(try Self.json.encodeStoredToString(value, keeping: unknownKeys))
        case .propertyListData:
            return .data(try Self.foundationPropertyList(.binary).encodeStored(value, keeping: unknownKeys))
        case .xmlPropertyListData:
            return .data(try Self.foundationPropertyList(.xml).encodeStored(value, keeping: unknownKeys))
        case .jsonTextElements:
            let tree = try Self.json.encodeStoredTree(value, keeping: unknownKeys)
            switch tree {
            case .array(let elements):
                return .array(
                    try elements.map { (element: StoredValue) throws(RawCodingError) in try Self.text(element) })
            case .dictionary(let dictionary):
                var texts: [(String, StoredValue)] = []
                for (key, element) in dictionary { texts.append((key, try Self.text(element))) }
                return .dictionary(StoredDictionary(texts))
            case .null:
                return .null
            default:
                throw RawCodingError(
                    kind: .encodingFailed, typeName: String(describing: Value.self), codingPath: [],
                    reason: "JSON text per element needs an array or a dictionary, and the value is \(tree.kindName)")
            }
        }
    }

    /// A property-list codec that writes what Foundation's `PropertyListDecoder`, the old
    /// reader of this form, reads: a `URL` in its own `Codable` form, not a string.
    private static func foundationPropertyList<Format: PropertyListFormat>(
        _ format: Format
    ) -> PropertyListCodec<Format> {
        var codec = PropertyListCodec(format: format)
        codec.writesFoundationURLs = true
        return codec
    }

    /// An element as JSON text.
    private static func text(_ element: StoredValue) throws(RawCodingError) -> StoredValue {
        .string(String(decoding: try json.writeTree(element), as: UTF8.self))
    }
}

extension StoredValue {
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .dictionary: true
        default: false
        }
    }
}
