/// The structural check of a `bplist00` file: trailer, offset table, every reachable object's
/// extent, reference bounds, cycles, nesting depth and expanded size.
struct BinaryPropertyListPreflight {
    let bytes: [UInt8]

    private var corrupted: (String) -> DecodingError { PropertyListPreflight.corrupted }

    func check() throws {
        guard bytes.count >= 8 + 1 + 32 else {
            throw corrupted("binary property list is \(bytes.count) bytes, too short for a header, an object and a trailer")
        }
        let trailer = bytes.count - BinaryPropertyListTrailer.size
        guard let fields = BinaryPropertyListTrailer(of: bytes) else {
            throw corrupted("binary property list is \(bytes.count) bytes, too short for a trailer")
        }
        let offsetSize = fields.offsetSize
        let referenceSize = fields.referenceSize
        let objectCount = fields.objectCount
        let top = fields.rootObject
        let tableStart = fields.offsetTableStart
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw corrupted("binary property list trailer at byte offset \(trailer) has offset size \(offsetSize) and reference size \(referenceSize); both must be 1 to 8")
        }
        guard objectCount >= 1, objectCount <= UInt64(bytes.count), top < objectCount,
              tableStart >= 9, tableStart < UInt64(trailer),
              UInt64(trailer) - tableStart >= objectCount * UInt64(offsetSize)
        else {
            throw corrupted("binary property list trailer at byte offset \(trailer) is inconsistent (objects \(objectCount), root \(top), offset table at \(tableStart))")
        }
        let count = Int(objectCount)
        let table = Int(tableStart)
        var offsets = [Int](repeating: 0, count: count)
        for index in 0..<count {
            let offset = integer(at: table + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < tableStart else {
                throw corrupted("binary property list object \(index) has offset \(offset), outside the object area 8..<\(tableStart)")
            }
            offsets[index] = Int(offset)
        }
        try walk(from: Int(top), offsets: offsets, referenceSize: referenceSize, objectArea: table)
    }

    /// Depth-first over references with an explicit stack: finds cycles and computes each
    /// object's depth and expanded size once.
    private func walk(from root: Int, offsets: [Int], referenceSize: Int, objectArea end: Int) throws {
        enum Mark { case unvisited, inProgress, done }
        var marks = [Mark](repeating: .unvisited, count: offsets.count)
        var depth = [Int](repeating: 0, count: offsets.count)
        var size = [Int](repeating: 0, count: offsets.count)
        var children: [Int: [Int]] = [:]
        var stack = [root]
        while let object = stack.last {
            switch marks[object] {
            case .unvisited:
                marks[object] = .inProgress
                let references = try self.references(of: object, at: offsets[object], referenceSize: referenceSize, end: end, objectCount: offsets.count)
                children[object] = references
                for child in references {
                    if marks[child] == .inProgress {
                        throw corrupted("binary property list object \(object) at byte offset \(offsets[object]) refers back to object \(child), which contains it: a reference cycle")
                    }
                    if marks[child] == .unvisited { stack.append(child) }
                }
            case .inProgress:
                stack.removeLast()
                let references = children.removeValue(forKey: object) ?? []
                var deepest = 0
                var total = 1
                for child in references {
                    deepest = max(deepest, depth[child])
                    total += size[child]
                    if total > PropertyListPreflight.maximumExpandedValues {
                        throw corrupted("binary property list expands to more than \(PropertyListPreflight.maximumExpandedValues) values through shared references (object \(object) at byte offset \(offsets[object]))")
                    }
                }
                depth[object] = deepest + 1
                size[object] = total
                if depth[object] > PropertyListPreflight.maximumDepth {
                    throw corrupted("binary property list nests deeper than \(PropertyListPreflight.maximumDepth) levels (object \(object) at byte offset \(offsets[object]))")
                }
                marks[object] = .done
            case .done:
                stack.removeLast()
            }
        }
    }

    /// Checks that the object at `offset` fits before `end` and returns the objects it refers to.
    private func references(of object: Int, at offset: Int, referenceSize: Int, end: Int, objectCount: Int) throws -> [Int] {
        let marker = bytes[offset]
        let kind = marker >> 4
        let info = Int(marker & 0x0F)
        var cursor = offset + 1
        func need(_ length: Int) throws {
            guard length >= 0, length <= end - cursor else {
                throw corrupted("binary property list object \(object) at byte offset \(offset) (marker 0x\(String(marker, radix: 16))) runs past the end of the object area at \(end)")
            }
        }
        func count() throws -> Int {
            guard info == 0x0F else { return info }
            try need(1)
            let intMarker = bytes[cursor]
            guard intMarker >> 4 == 0x1, intMarker & 0x0F <= 3 else {
                throw corrupted("binary property list object \(object) at byte offset \(offset) has a malformed length")
            }
            let width = 1 << Int(intMarker & 0x0F)
            cursor += 1
            try need(width)
            let value = integer(at: cursor, size: width)
            cursor += width
            guard value <= UInt64(end) else {
                throw corrupted("binary property list object \(object) at byte offset \(offset) claims \(value) elements, more than the file holds")
            }
            return Int(value)
        }
        switch kind {
        case 0x0:
            guard [0x00, 0x08, 0x09, 0x0F].contains(info) else {
                throw corrupted("binary property list object \(object) at byte offset \(offset) has unknown marker 0x\(String(marker, radix: 16))")
            }
            return []
        case 0x1:
            guard info <= 4 else { throw corrupted("binary property list integer at byte offset \(offset) has unsupported width marker 0x\(String(marker, radix: 16))") }
            try need(1 << info)
            return []
        case 0x2:
            guard info == 2 || info == 3 else { throw corrupted("binary property list real at byte offset \(offset) has unsupported width marker 0x\(String(marker, radix: 16))") }
            try need(1 << info)
            return []
        case 0x3:
            guard marker == 0x33 else { throw corrupted("binary property list date at byte offset \(offset) has marker 0x\(String(marker, radix: 16)), expected 0x33") }
            try need(8)
            return []
        case 0x4, 0x5:
            try need(try count())
            return []
        case 0x6:
            let units = try count()
            try need(units * 2)
            return []
        case 0x8:
            try need(info + 1)
            return []
        case 0xA, 0xC, 0xD:
            let elements = try count()
            let referenceCount = kind == 0xD ? elements * 2 : elements
            let (bytesNeeded, overflow) = referenceCount.multipliedReportingOverflow(by: referenceSize)
            guard !overflow else { try need(-1); return [] }
            try need(bytesNeeded)
            return try (0..<referenceCount).map { index in
                let reference = integer(at: cursor + index * referenceSize, size: referenceSize)
                guard reference < UInt64(objectCount) else {
                    throw corrupted("binary property list object \(object) at byte offset \(offset) refers to object \(reference); the file has \(objectCount)")
                }
                return Int(reference)
            }
        default:
            throw corrupted("binary property list object \(object) at byte offset \(offset) has unknown marker 0x\(String(marker, radix: 16))")
        }
    }

    private func integer(at offset: Int, size: Int) -> UInt64 {
        BinaryPropertyListTrailer.integer(in: bytes, at: offset, size: size)
    }
}
