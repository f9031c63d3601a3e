import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `Scripts/postgres-cluster.sh`, which `.ci/run` and the restart check use: the server it starts
/// outlives it, so it must not keep the descriptors it was started with. A server holding the
/// write end of a test's pipe kept that test waiting for the pipe's end until CI was stopped.
@Suite("The throwaway PostgreSQL cluster script")
struct PostgresClusterScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Scripts/postgres-cluster.sh").standardizedFileURL.path

    static let serverBinaries =
        (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
        .contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/pg_ctl") } ?? false

    #if os(Linux)
        @Test(
            .enabled(
                if: serverBinaries || ProcessInfo.processInfo.environment["PGBIN"] != nil,
                "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin or PGBIN)"))
        func theServerKeepsNoDescriptorOfTheShellThatStartedIt() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let printed = folder.appendingPathComponent("cluster").path
            // The shell's descriptor 7 is the write end of our pipe, as a pipe of another test
            // would be; the script's output goes to a file. Run without Foundation's Process,
            // whose wait would wait for the server as well (``PostgresServer/run(arguments:)``).
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            defer { close(ends[0]) }
            let status = try PostgresServer.run(arguments: [
                "/bin/bash", "-c", #"exec 7>&"$2"; "$0" start > "$1""#, Self.script, printed, "\(ends[1])",
            ])
            close(ends[1])
            let lines = try String(contentsOfFile: printed, encoding: .utf8).split(separator: "\n")
            let cluster = try #require(lines.first.map(String.init), "the script printed nothing")
            defer { _ = try? PostgresServer.run(arguments: ["/bin/bash", Self.script, "stop", cluster]) }
            #expect(status == 0)
            // Every writer has exited but the server: the pipe reaches its end unless the
            // server holds it. Waiting at most 30 s, never for ever.
            var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 30_000)
            #expect(ready == 1, "the server holds the write end of the pipe its starter inherited")
            if ready == 1 {
                var byte: UInt8 = 0
                #expect(read(descriptor.fd, &byte, 1) == 0, "the pipe reached its end")
            }
        }
    #endif
}
