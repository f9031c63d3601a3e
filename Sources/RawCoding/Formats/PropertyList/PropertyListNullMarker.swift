/// Property lists' stand-in for null, as Foundation's coders write and read it: both writers
/// write ``StoredValue/null`` as this string, and the property-list codec reads it back as nil.
enum PropertyListNullMarker {
    static let text = "$null"
}
