/// Searching byte arrays for a pattern. (`Collection.firstRange(of:)` would do, but needs
/// macOS 13 / iOS 16 on Apple systems.)
enum ByteSearch {
    /// The index just past the first occurrence of `pattern` in `bytes` at or after `start`.
    static func end(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, pattern.count <= bytes.count else { return nil }
        var index = start
        let last = bytes.count - pattern.count
        while index <= last {
            if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index + pattern.count
            }
            index += 1
        }
        return nil
    }
}
