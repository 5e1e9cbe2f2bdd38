import Foundation

/// Reads bundles as they are at a git revision, with `git` run directly (never through a shell) and
/// revisions passed as data: two processes per bundle however many versions it has.
public struct GitRepository: Sendable {
    public var toplevel: String

    public struct GitError: Error, CustomStringConvertible, Equatable {
        public var message: String
        public var description: String { message }
    }

    /// The repository that holds `directory`.
    public init(containing directory: String) throws {
        let result = GitRepository.run(["rev-parse", "--show-toplevel"], in: directory)
        guard result.status == 0, let top = String(data: result.output, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !top.isEmpty else {
            if result.status == -1 { throw GitError(message: "git is not installed or not on PATH") }
            throw GitError(message: "\(directory) is not inside a git work tree; --against and --released need one")
        }
        toplevel = PathTools.standardize(top)
    }

    /// The commit a user-given revision names. A revision starting with `-` is refused so it can never
    /// become an option; `--end-of-options` guards the rest.
    public func resolve(_ revision: String) throws -> String {
        guard !revision.hasPrefix("-") else {
            throw GitError(message: "revision '\(revision)' starts with '-': refused (a revision is never an option)")
        }
        guard !revision.isEmpty, !revision.contains("\0") else { throw GitError(message: "an empty revision names nothing") }
        let result = GitRepository.run(["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"], in: toplevel)
        if result.status == 0, let sha = String(data: result.output, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), !sha.isEmpty {
            return sha
        }
        let shallow = GitRepository.run(["rev-parse", "--is-shallow-repository"], in: toplevel)
        if String(data: shallow.output, encoding: .utf8)?.hasPrefix("true") == true {
            throw GitError(message: "unknown revision '\(revision)' in a shallow clone: fetch the full history (actions/checkout: fetch-depth: 0, or git fetch --unshallow)")
        }
        throw GitError(message: "unknown revision '\(revision)': fetch it first (for example git fetch origin main)")
    }

    /// The bundle at `path` (absolute, inside this repository) as it is at `commit`; nil when it did not exist there.
    public func bundle(atPath path: String, commit: String, label: String, versionOrder: [String]?) throws -> ModelBundle? {
        guard let relative = PathTools.relative(PathTools.standardize(path), to: toplevel) else {
            throw GitError(message: "\(path) is outside the git repository at \(toplevel)")
        }
        let listing = GitRepository.run(["ls-tree", "-r", "-z", "--full-tree", commit, "--", relative], in: toplevel)
        guard listing.status == 0 else { throw GitError(message: "git ls-tree failed for \(relative) at \(label)") }
        // "<mode> <type> <sha>\t<path>\0"
        var blobs: [(path: String, sha: String)] = []
        for record in listing.output.split(separator: 0) {
            guard let text = String(data: Data(record), encoding: .utf8), let tab = text.firstIndex(of: "\t") else { continue }
            let fields = text[..<tab].split(separator: " ")
            guard fields.count == 3, fields[1] == "blob" else { continue }
            blobs.append((String(text[text.index(after: tab)...]), String(fields[2])))
        }
        let prefix = relative + "/"
        let wanted = blobs.filter { entry in
            let inner = entry.path.hasPrefix(prefix) ? String(entry.path.dropFirst(prefix.count)) : ""
            let parts = inner.split(separator: "/")
            return inner == ".xccurrentversion" || (parts.count == 2 && parts[0].hasSuffix(".xcdatamodel") && (parts[1] == "contents" || parts[1] == "elements"))
        }
        guard !wanted.isEmpty else { return nil }
        let contents = try catFiles(wanted.map(\.sha))

        var versions: [String: VersionContent] = [:]
        var pointer: (ModelBundle.CurrentVersionFile, String?) = (.absent, nil)
        for (entry, data) in zip(wanted, contents) {
            let inner = String(entry.path.dropFirst(prefix.count))
            if inner == ".xccurrentversion" {
                pointer = CurrentVersionReader.parse(data)
                continue
            }
            let parts = inner.split(separator: "/")
            let name = String(parts[0].dropLast(".xcdatamodel".count))
            if parts[1] == "elements" {
                if versions[name] == nil { versions[name] = .legacy }
            } else {
                versions[name] = ContentsParser.parse(data: data, path: "\(label):\(entry.path)")
            }
        }
        let names = VersionOrder.sorted(Array(versions.keys), explicit: versionOrder)
        let displayPath = "\(label):\(relative)"
        return ModelBundle(
            path: displayPath,
            versions: names.map { ModelVersion(name: $0, folderPath: "\(displayPath)/\($0).xcdatamodel", contentsPath: "\(displayPath)/\($0).xcdatamodel/contents", content: versions[$0]!) },
            declaredCurrentVersion: pointer.1, currentVersionFile: pointer.0)
    }

    /// One `git cat-file --batch` for every blob.
    func catFiles(_ shas: [String]) throws -> [Data] {
        let input = Data((shas.joined(separator: "\n") + "\n").utf8)
        let result = GitRepository.run(["cat-file", "--batch"], in: toplevel, input: input)
        guard result.status == 0 else { throw GitError(message: "git cat-file failed") }
        var out: [Data] = []
        var cursor = result.output.startIndex
        let bytes = result.output
        for _ in shas {
            guard let newline = bytes[cursor...].firstIndex(of: 0x0A),
                  let header = String(data: bytes[cursor..<newline], encoding: .utf8) else { throw GitError(message: "unexpected git cat-file output") }
            let fields = header.split(separator: " ")
            guard fields.count == 3, let size = Int(fields[2]) else { throw GitError(message: "git cat-file: \(header)") }
            let start = bytes.index(after: newline)
            let end = start + size
            guard end <= bytes.endIndex else { throw GitError(message: "git cat-file output is truncated") }
            out.append(Data(bytes[start..<end]))
            cursor = min(end + 1, bytes.endIndex)
        }
        return out
    }

    /// Runs git with arguments as an array: no shell ever sees them.
    static func run(_ arguments: [String], in directory: String, input: Data? = nil) -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        process.environment = environment
        let stdout = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        do {
            try process.run()
        } catch {
            return (-1, Data())
        }
        if let input {
            // Write from another thread so a large answer cannot deadlock against a full input pipe.
            let writer = stdin.fileHandleForWriting
            let box = UnsafeSendableBox(writer)
            DispatchQueue.global().async {
                box.value.write(input)
                try? box.value.close()
            }
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
