// The libFuzzer entry point. `Scripts/fuzz.sh` compiles this file with the sources of
// RawCoding and RawCodingFuzzTargets into one module (`swiftc -parse-as-library
// -sanitize=fuzzer,address`); RAWCODING_FUZZ_TARGET names the target to run.
import Foundation

private let selected: FuzzTargets.Target = {
    let name = ProcessInfo.processInfo.environment["RAWCODING_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTargets.Target(rawValue: name) else {
        let names = FuzzTargets.Target.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("RAWCODING_FUZZ_TARGET must be one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func rawCodingFuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = count == 0 ? Data() : Data(bytes: start!, count: count)
    do {
        // On a 512 KiB thread, as apps decode on secondary threads and in tasks.
        try SmallStackThread.run(selected, on: data)
    } catch {
        FileHandle.standardError.write(Data("RawCoding fuzz property failed: \(error)\n".utf8))
        abort()
    }
    return 0
}
