import Foundation
import Testing

/// `Scripts/apple-check.sh` fails as a check should: non-zero, naming the error, and leaving the
/// machine as it found it. A compiler that fails deletes its output files, and as root an output of
/// `/dev/null` is the device itself (measured: `swiftc -emit-sil -o /dev/null` on a bad file), so the
/// script must write its outputs to its own folder.
///
/// The script runs in a private mount namespace whose `/dev` is a fresh tmpfs, so that a
/// regression deletes that namespace's `/dev/null`, never the machine's.
@Suite("Scripts/apple-check.sh on a failed compile")
struct AppleCheckScriptTests {
    /// Root, `unshare` and a mount of our own: what the private `/dev` needs (CI runs as root).
    static let namespaceReason: String? = {
        guard getuid() == 0 else { return "needs root, to mount a private /dev in a mount namespace" }
        guard let bash = FileManager.default.isExecutableFile(atPath: "/bin/bash") ? "/bin/bash" : nil,
            let probe = try? ChildProcess.run(
                URL(fileURLWithPath: bash),
                ["-c", "unshare --mount --propagation private sh -c 'mount -t tmpfs probe /mnt'"])
        else { return "needs bash" }
        return probe.status == 0 ? nil : "unshare --mount could not mount a tmpfs here: \(probe.errors)"
    }()

    /// An iPhoneOS SDK, where one has been prepared (`RAWCODING_APPLE_SDK`, as in the README's
    /// contributor section): with it the planted error is type-checked against the real SDK.
    static let sdk = ProcessInfo.processInfo.environment["RAWCODING_APPLE_SDK"]

    /// Runs the check on a copy of the package holding a planted type error, inside the namespace.
    /// Without a real SDK it is given one that has no standard library and a cache that says the
    /// standard library is built, so its first target's compile fails at once ("unable to load
    /// standard library"), as the compiler's own failures do; only the XCTest stub is skipped.
    /// With `fromGit`, the stand-in SDK is given as the git directory of a repository whose
    /// commit holds it and one of whose files has lost its content, as a fetched copy of
    /// `danpashin/sdks` has (the script writes the SDK from it into its cache).
    static func runOnPlantedError(sdk: String?, fromGit: Bool = false) throws -> ChildProcess {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("apple-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        return try ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", driver, "driver", PackagePaths.root.path, work.path, sdk ?? "", fromGit ? "git" : ""],
            timeout: sdk == nil ? 120 : 1_800)
    }

    @Test(.enabled(if: namespaceReason == nil, Comment(rawValue: namespaceReason ?? "")), Python.required)
    func aFailedCompileLeavesDevNullADevice() throws {
        let run = try Self.runOnPlantedError(sdk: nil)
        #expect(run.status == 1, "exit \(run.status): \(run.output) \(run.errors)")
        #expect(run.errors.contains("unable to load standard library"), "\(run.output) \(run.errors)")
        #expect(run.output.contains("apple-check: RawCoding,"), "the summary line: \(run.output)")
        #expect(run.output.contains("after: /dev/null is a character device"), "\(run.output) \(run.errors)")
        #expect(Self.isCharacterDevice("/dev/null"))
    }

    @Test(.enabled(if: namespaceReason == nil, Comment(rawValue: namespaceReason ?? "")), Python.required)
    func anSDKIsWrittenFromAGitCopyWithoutItsMissingContent() throws {
        let run = try Self.runOnPlantedError(sdk: nil, fromGit: true)
        #expect(run.status == 1, "exit \(run.status): \(run.output) \(run.errors)")
        #expect(run.errors.contains("left out 1 files whose content the copy lacks"), "\(run.errors)")
        #expect(run.output.contains("written: SDKSettings.json\n"), "only the file with content: \(run.output)")
        #expect(run.errors.contains("unable to load standard library"), "checked the written SDK: \(run.errors)")
        #expect(run.output.contains("after: /dev/null is a character device"), "\(run.output) \(run.errors)")
    }

    @Test(
        .enabled(if: sdk != nil, "RAWCODING_APPLE_SDK is not set: no iPhoneOS SDK to type-check against"),
        .enabled(if: namespaceReason == nil, Comment(rawValue: namespaceReason ?? "")), Python.required)
    func aPlantedErrorIsNamedAndDevNullStays() throws {
        let run = try Self.runOnPlantedError(sdk: Self.sdk)
        #expect(run.status == 1, "exit \(run.status): \(run.output) \(run.errors)")
        #expect(
            run.output.contains("Sources/RawCoding/PlantedError.swift:1:"), "\(run.output) \(run.errors)")
        #expect(run.output.contains(": error: cannot convert value of type 'String' to specified type 'Int'"))
        #expect(run.output.contains("after: /dev/null is a character device"), "\(run.output) \(run.errors)")
        #expect(Self.isCharacterDevice("/dev/null"))
    }

    static func isCharacterDevice(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR
    }

    /// `driver REPO WORK [SDK]`: copies the package (no `.build`, no `.git`) with a planted error,
    /// makes the stand-in SDK when none is given, and runs the check under a private `/dev`.
    static let driver = #"""
        set -eu
        repo=$1 work=$2 sdk=${3:-} mode=${4:-}
        mkdir -p "$work/package"
        tar -C "$repo" --exclude=./.build --exclude=./.git -cf - . | tar -C "$work/package" -xf -
        printf 'let plantedError: Int = "planted"\n' > "$work/package/Sources/RawCoding/PlantedError.swift"
        real=$(command -v swiftc)
        if [ -z "$sdk" ]; then
            sdk=$work/sdk
            mkdir -p "$sdk"
            printf '{"CanonicalName": "iphoneos17.4", "Version": "17.4"}\n' > "$sdk/SDKSettings.json"
            version=$("$real" --version 2>&1 | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -1)
            mkdir -p "$work/cache/swift-$version-iphoneos17.4/stdlib"
            touch "$work/cache/swift-$version-iphoneos17.4/stdlib/done"
            export APPLE_CHECK_CACHE=$work/cache
            mkdir -p "$work/toolchain/bin"
            ln -s "$(dirname "$(dirname "$real")")/lib" "$work/toolchain/lib"
            printf '#!/bin/bash\ncase " $* " in *" -module-name XCTest "*) exit 0 ;; esac\nexec %s "$@"\n' "$real" \
                > "$work/toolchain/bin/swiftc"
            chmod +x "$work/toolchain/bin/swiftc"
            export PATH="$work/toolchain/bin:$PATH"
            if [ "$mode" = git ]; then
                printf 'lost\n' > "$sdk/Lost.swiftdoc"
                git -C "$sdk" init -q
                git -C "$sdk" add -A
                git -C "$sdk" -c user.name=check -c user.email=check@example.com commit -qm sdk
                lost=$(git -C "$sdk" rev-parse HEAD:Lost.swiftdoc)
                rm -f "$sdk/.git/objects/${lost:0:2}/${lost:2}"
                sdk=$sdk/.git
            fi
        fi
        unshare --mount --propagation private bash -c '
            work=$1 sdk=$2
            mount -t tmpfs -o mode=755 devices /dev
            for device in "null 1 3" "zero 1 5" "full 1 7" "random 1 8" "urandom 1 9" "tty 5 0"; do
                set -- $device
                mknod -m 666 "/dev/$1" c "$2" "$3"
            done
            ln -s /proc/self/fd /dev/fd
            for stream in stdin:0 stdout:1 stderr:2; do ln -s "/proc/self/fd/${stream#*:}" "/dev/${stream%:*}"; done
            mkdir /dev/shm
            status=0
            "$work/package/Scripts/apple-check.sh" "$sdk" || status=$?
            for written in "$work"/cache/sdk-*/*; do
                if [ -e "$written" ]; then echo "written: ${written##*/}"; fi
            done
            if [ -c /dev/null ]; then
                echo "after: /dev/null is a character device"
            else
                echo "after: /dev/null is not a character device"
            fi
            exit $status' namespace "$work" "$sdk"
        """#
}
