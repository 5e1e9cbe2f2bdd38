import Foundation
import ModelLintSupport
import ModelLintModel

/// Reads bundles as they are at a git revision, with `git` run directly (never through a shell) and
/// revisions passed as data: two processes per bundle however many versions it has.
package struct GitRepository: Sendable {
    package var toplevel: String
    /// The repository's git directory, passed to every command explicitly (`--git-dir`), so a git directory
    /// planted closer to a bundle (`HEAD`, `config`, `objects/`, `refs/` committed beside it) is never discovered.
    package var gitDirectory: String
    /// The bundles read at a commit this run, by path, commit, label and order: `--against` reads the bundle's
    /// shipped record and `--only-new` lints it, and git is asked once.
    private let bundlesAtCommits = Locked([String: ModelBundle?]())
    /// A folder's listing at a commit (`ls-tree`), by commit and path: which versions are unchanged and the bundle's
    /// read at the commit both start from it, and git is asked once.
    private let treeListings = Locked([String: (status: Int32, output: Data, error: String)]())
    /// Bytes of output read from git through this repository: what a history costs, for tests that bound it.
    private let outputRead = Locked(0)
    package var bytesRead: Int { outputRead.withLock { $0 } }

    package struct GitError: Error, CustomStringConvertible, Equatable {
        package var message: String
        package var description: String { message }

        package init(message: String) {
            self.message = message
        }
    }

    /// The repository that holds `directory`, discovered once. Implicit bare repositories are refused
    /// (`safe.bareRepository=explicit`): a work tree is what modellint reads.
    package init(containing directory: String) throws {
        // git finds a repository through a `.git` (or a bare repository's HEAD, objects and refs) at or above the
        // folder: with none there is no git process to start (a run outside any repository saves one).
        guard Self.mayBeInRepository(directory) else {
            throw GitError(message: "\(directory) is not inside a git work tree; --against and --released need one")
        }
        let result = GitRepository.run(
            ["rev-parse", "--show-toplevel", "--absolute-git-dir"], in: directory, repository: nil)
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard result.status == 0, lines.count == 2, !lines[0].isEmpty, !lines[1].isEmpty else {
            if result.status == -1 { throw GitError(message: "git is not installed, or not on an absolute PATH entry") }
            if result.error.contains("safe.bareRepository") {
                throw GitError(
                    message:
                        "git found a bare repository at or above \(directory) (a HEAD, config, objects and refs beside the files) and modellint refuses it: --against and --released read the work tree's own repository; run modellint from the repository's top folder"
                )
            }
            throw GitError(message: "\(directory) is not inside a git work tree; --against and --released need one")
        }
        toplevel = PathTools.standardize(lines[0])
        gitDirectory = PathTools.standardize(lines[1])
    }

    /// Whether git would stop at `folder` looking for a repository: a `.git` (directory or file), or a bare
    /// repository's `HEAD`, `objects` and `refs`.
    static func hasRepositoryMarker(_ folder: String) -> Bool {
        let base = folder == "/" ? "" : folder
        return FileReader.entryExists(at: base + "/.git")
            || ["HEAD", "objects", "refs"].allSatisfy { FileReader.entryExists(at: base + "/" + $0) }
    }

    /// Whether git could find a repository from `directory`: a relative path is left to git.
    package static func mayBeInRepository(_ directory: String) -> Bool {
        guard directory.hasPrefix("/") else { return true }
        return nearestMarkedFolder(directory) != nil
    }

    /// The nearest folder at or above `directory` (absolute) where git would stop looking for a repository: the
    /// top folder git will name, unless the repository's configuration or a bare repository says otherwise.
    package static func nearestMarkedFolder(_ directory: String) -> String? {
        var current = PathTools.standardize(directory)
        while true {
            if hasRepositoryMarker(current) { return current }
            let up = (current as NSString).deletingLastPathComponent
            if up == current || up.isEmpty { return nil }
            current = up
        }
    }

    /// The commit a user-given revision names. A revision starting with `-` is refused so it can never
    /// become an option; `--end-of-options` guards the rest.
    package func resolve(_ revision: String) throws -> String {
        guard !revision.hasPrefix("-") else {
            throw GitError(message: "revision '\(revision)' starts with '-': refused (a revision is never an option)")
        }
        guard !revision.isEmpty, !revision.contains("\0") else {
            throw GitError(message: "an empty revision names nothing")
        }
        let result = run(["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"])
        if result.status == 0,
            let sha = String(data: result.output, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !sha.isEmpty
        {
            return sha
        }
        let shallow = run(["rev-parse", "--is-shallow-repository"])
        if String(data: shallow.output, encoding: .utf8)?.hasPrefix("true") == true {
            throw GitError(
                message:
                    "unknown revision '\(revision)' in a shallow clone: fetch the full history (actions/checkout: fetch-depth: 0, or git fetch --unshallow)"
            )
        }
        throw GitError(message: "unknown revision '\(revision)': fetch it first (for example git fetch origin main)")
    }

    /// The bundle at `path` (absolute, inside this repository) as it is at `commit`; nil when it did not exist there.
    /// `following`: an order already decided for this bundle (the work tree's), which the revision's versions keep.
    package func bundle(
        atPath path: String, commit: String, label: String, versionOrder: [String]?, following decided: [String]? = nil
    ) throws -> ModelBundle? {
        try bundle(
            atPath: path, commit: commit, label: label, versionOrder: versionOrder, following: decided,
            cache: EntitySourceCache())
    }

    package func bundle(
        atPath path: String, commit: String, label: String, versionOrder: [String]?, following decided: [String]?,
        cache: EntitySourceCache, workTree: WorkTreeRead? = nil
    ) throws -> ModelBundle? {
        try bundle(
            atPath: path, in: .commit(commit, label: label), versionOrder: versionOrder, following: decided,
            cache: cache, workTree: workTree)
    }

    /// The bundle at `path` as it was at `commit`: at that path, or where the change since `commit` moved it from
    /// (a folder above it renamed), so a move is not mistaken for a new bundle.
    package func bundle(
        atPathOrWhereMovedFrom path: String, commit: String, label: String, following decided: [String]
    ) throws -> ModelBundle? {
        try bundle(
            atPathOrWhereMovedFrom: path, commit: commit, label: label, following: decided, cache: EntitySourceCache())
    }

    /// The same, sharing `cache` (the work tree's read of the bundle, which its versions at `commit` mostly repeat)
    /// and reusing `workTree` (see `WorkTreeRead`); the bundle read where it was moved from reuses nothing.
    package func bundle(
        atPathOrWhereMovedFrom path: String, commit: String, label: String, following decided: [String],
        cache: EntitySourceCache, workTree: WorkTreeRead? = nil
    ) throws -> ModelBundle? {
        let key = ([path, commit, label, workTree?.displayPath ?? ""] + decided).joined(separator: "\u{0}")
        if let known = bundlesAtCommits.withLock({ $0[key] }) { return known }
        var read = try bundle(
            atPath: path, commit: commit, label: label, versionOrder: nil, following: decided, cache: cache,
            workTree: workTree)
        if read == nil, let relative = PathTools.relative(PathTools.standardize(path), to: toplevel),
            let moved = movedFrom(relative, since: commit)
        {
            read = try bundle(
                atPath: toplevel + "/" + moved, commit: commit, label: label, versionOrder: nil, following: decided,
                cache: cache)
        }
        bundlesAtCommits.withLock { $0[key] = .some(read) }
        return read
    }

    /// The versions of the bundle at `path` whose `contents` at `commit` are byte for byte the work tree's: the
    /// blob ids at `commit` against the work tree files'. A file git's index names with that blob id, and whose stat
    /// data the index still describes (`GitIndex`), is that blob, as `git status` takes it; the others are hashed
    /// (`hash-object --no-filters`, so no filter the repository configures runs). One or two git processes; nothing
    /// when one fails, or the bundle was elsewhere at `commit`.
    package func versionsIdentical(bundleAt path: String, since commit: String) -> Set<ExactName> {
        comparedVersions(bundleAt: path, since: commit).identical
    }

    /// `versionsIdentical`, and how many files were hashed rather than known from the index.
    package func comparedVersions(bundleAt path: String, since commit: String) -> (
        identical: Set<ExactName>, hashed: Int
    ) {
        guard let relative = PathTools.relative(PathTools.standardize(path), to: toplevel) else { return ([], 0) }
        let listed = treeListing(of: relative, at: commit)
        guard listed.status == 0 else { return ([], 0) }
        // "<mode> blob <sha>"
        var blobs: [(version: String, sha: String, file: String)] = []
        let prefix = relative + "/"
        for (fields, file) in Self.records(listed.output) {
            guard fields.count == 3, fields[0].hasPrefix("100"), fields[1] == "blob", file.hasPrefix(prefix),
                file.hasSuffix(".xcdatamodel/contents")
            else { continue }
            let inner = file.dropFirst(prefix.count).dropLast("/contents".count)
            guard !inner.contains("/"), !file.contains("\n") else { continue }
            blobs.append((String(inner.dropLast(".xcdatamodel".count)), String(fields[2]), file))
        }
        let present = blobs.filter {
            !FileReader.isSymbolicLink(toplevel + "/" + $0.file)
                && FileReader.kind(at: toplevel + "/" + $0.file) == .regular
        }
        guard !present.isEmpty else { return ([], 0) }
        var identical: Set<ExactName> = []
        var unknown: [(version: String, sha: String, file: String)] = []
        let index = GitIndex.read(gitDirectory: gitDirectory, under: prefix, hashLength: present[0].sha.utf8.count / 2)
        for blob in present {
            if let (index, indexModified) = index, let entry = index.entries[ExactName(blob.file)],
                entry.blobID == blob.sha,
                let (info, modified, changed) = FileReader.status(toplevel + "/" + blob.file),
                entry.describes(info, modified: modified, changed: changed, indexModified: indexModified)
            {
                identical.insert(ExactName(blob.version))
            } else {
                unknown.append(blob)
            }
        }
        guard !unknown.isEmpty else { return (identical, 0) }
        let hashed = run(
            ["hash-object", "--no-filters", "--stdin-paths"],
            input: Data(unknown.map { toplevel + "/" + $0.file + "\n" }.joined().utf8))
        let ids = String(decoding: hashed.output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard hashed.status == 0, ids.count == unknown.count else { return ([], unknown.count) }
        return (
            identical.union(zip(unknown, ids).filter { $0.0.sha == $0.1 }.map { ExactName($0.0.version) }),
            unknown.count
        )
    }

    /// Where the bundle folder at `relative` (in the work tree) was at `commit`, when the change since then moved it
    /// (git's rename detection on its files: `R` records whose new path is inside the folder); nil otherwise.
    package func movedFrom(_ relative: String, since commit: String) -> String? {
        let diff = run(["diff", "-M", "--name-status", "-z", commit, "--"])
        guard diff.status == 0 else { return nil }
        let prefix = relative + "/"
        for (old, new) in Self.renames(inNameStatus: diff.output) {
            guard new.hasPrefix(prefix), case let tail = String(new.dropFirst(prefix.count)), old.hasSuffix("/" + tail)
            else { continue }
            let folder = String(old.dropLast(tail.count + 1))
            if folder != relative { return folder }
        }
        return nil
    }

    /// The renames (`R` records: old path, new path) of `--name-status -z` output; a copy (`C`) has two paths too,
    /// every other record one.
    static func renames(inNameStatus output: Data) -> [(old: String, new: String)] {
        let fields = output.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var renames: [(old: String, new: String)] = []
        var i = 0
        while i < fields.count {
            let status = fields[i]
            let paths = status.hasPrefix("R") || status.hasPrefix("C") ? 2 : 1
            if status.hasPrefix("R"), i + 2 < fields.count { renames.append((fields[i + 1], fields[i + 2])) }
            i += 1 + paths
        }
        return renames
    }

    /// A listing's NUL-separated records (`ls-tree`, `ls-files --stage`), "<fields>\t<path>", with the fields split
    /// at spaces; a record that is not UTF-8 is left out. On bytes: a listing has a record per file of the
    /// repository, and splitting text by `Character` costs some 100 instructions a byte.
    package static func records(_ output: Data) -> [(fields: [Substring], path: String)] {
        records(output, possiblyUnder: "")
    }

    /// `records`, leaving out without decoding it a record whose path cannot start with `prefix` as `hasPrefix`
    /// compares: an ASCII path against an ASCII prefix is decided by its bytes (most of a whole index's records are
    /// elsewhere); any other record is kept, for the caller's own comparison.
    package static func records(_ output: Data, possiblyUnder prefix: String) -> [(fields: [Substring], path: String)] {
        let prefixBytes = Array(prefix.utf8)
        let asciiPrefix = prefixBytes.allSatisfy { $0 < 0x80 }
        var found: [(fields: [Substring], path: String)] = []
        forEachRecord(output) { record in
            if asciiPrefix, !prefixBytes.isEmpty, let tab = record.firstIndex(of: 0x09) {
                let path = record[(tab + 1)...]
                if !path.starts(with: prefixBytes), path.allSatisfy({ $0 < 0x80 }) { return }
            }
            let text = String(decoding: record, as: UTF8.self)
            // Decoded once: a record that is not UTF-8 decodes to other bytes. The tab is a byte at a character
            // boundary, so the text splits there.
            guard text.utf8.elementsEqual(record), let tab = text.utf8.firstIndex(of: 0x09) else { return }
            found.append(
                (
                    text.utf8[..<tab].split(separator: 0x20).map { Substring($0) },
                    String(text[text.utf8.index(after: tab)...])
                ))
        }
        return found
    }

    /// The paths of a listing's records (what follows each record's tab), invalid UTF-8 shown as U+FFFD.
    package static func recordPaths(_ output: Data) -> [String] {
        var paths: [String] = []
        forEachRecord(output) { record in
            guard let tab = record.firstIndex(of: 0x09) else { return }
            paths.append(String(decoding: record[(tab + 1)...], as: UTF8.self))
        }
        return paths
    }

    /// Each non-empty NUL-separated record of `-z` output, as bytes.
    package static func forEachRecord(_ output: Data, _ body: (ArraySlice<UInt8>) -> Void) {
        let bytes = [UInt8](output)
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
            if end > start { body(bytes[start..<end]) }
            start = end + 1
        }
    }

    /// Where a bundle's files are read from: a commit's tree, or the index (what the next commit holds).
    package enum Snapshot: Sendable {
        case commit(String, label: String)
        /// The staged files, reported under the bundle's own display path (they are what is being committed).
        /// `listing`: `git ls-files --stage -z` output already read for it (a pre-commit run lists the index once).
        case index(displayPath: String, listing: Data? = nil)
    }

    /// The bundle at `path` as the snapshot holds it; nil when it holds none of its files.
    package func bundle(
        atPath path: String, in snapshot: Snapshot, versionOrder: [String]?, following decided: [String]? = nil
    ) throws -> ModelBundle? {
        try bundle(
            atPath: path, in: snapshot, versionOrder: versionOrder, following: decided, cache: EntitySourceCache())
    }

    /// The work tree's read of a bundle, handed to a read of the same bundle at a revision. The versions git says
    /// are byte for byte the same there (`versionsIdentical`) are the work tree's own, neither fetched nor parsed;
    /// and the revision's bundle is shown at the work tree's path, so an unchanged version is the same model at the
    /// same places on both sides and what is found about it is found in the same words (`check --only-new` sets
    /// the two runs side by side; a revision's model is compared, never printed).
    package struct WorkTreeRead: Sendable {
        package var displayPath: String
        /// By name, byte for byte (two folders whose names differ only in normalization are two versions).
        package var identical: [ExactName: ModelVersion]

        package init(displayPath: String, identical: [ExactName: ModelVersion]) {
            self.displayPath = displayPath
            self.identical = identical
        }
    }

    package func bundle(
        atPath path: String, in snapshot: Snapshot, versionOrder: [String]?, following decided: [String]?,
        cache: EntitySourceCache, workTree: WorkTreeRead? = nil
    ) throws -> ModelBundle? {
        guard let relative = PathTools.relative(PathTools.standardize(path), to: toplevel) else {
            throw GitError(message: "\(path) is outside the git repository at \(toplevel)")
        }
        // A lone version (an unversioned model) is read as a bundle of that one version, as on disk.
        let standalone = relative.hasSuffix(".xcdatamodel")
        let standaloneName = standalone ? String(relative.split(separator: "/").last ?? "") : ""
        let prefix = standalone ? (relative as NSString).deletingLastPathComponent + "/" : relative + "/"
        let blobs: [(path: String, sha: String)]
        let displayPath: String
        switch snapshot {
        case .commit(let commit, let name):
            displayPath = workTree?.displayPath ?? "\(name):\(relative)"
            let listing = treeListing(of: relative, at: commit)
            guard listing.status == 0 else { throw GitError(message: "git ls-tree failed for \(relative) at \(name)") }
            // "<mode> <type> <sha>"
            blobs = Self.records(listing.output).compactMap {
                $0.fields.count == 3 && $0.fields[1] == "blob" ? ($0.path, String($0.fields[2])) : nil
            }
        case .index(let display, let listed):
            displayPath = display
            let output: Data
            if let listed {
                output = listed
            } else {
                let listing = run(["ls-files", "--stage", "-z", "--full-name", "--", relative])
                guard listing.status == 0 else { throw GitError(message: "git ls-files failed for \(relative)") }
                output = listing.output
            }
            // "<mode> <sha> <stage>"; a conflicted path (stage 1-3) is read at its "ours" side (2).
            blobs = Self.records(output, possiblyUnder: prefix).compactMap { record in
                let fields = record.fields
                return fields.count == 3 && fields[0].hasPrefix("100") && (fields[2] == "0" || fields[2] == "2")
                    ? (record.path, String(fields[1])) : nil
            }
        }
        let listed = blobs.filter { entry in
            let inner = entry.path.hasPrefix(prefix) ? String(entry.path.dropFirst(prefix.count)) : ""
            let parts = inner.split(separator: "/")
            return (!standalone && inner == ".xccurrentversion")
                || (parts.count == 2 && parts[0].hasSuffix(".xcdatamodel")
                    && (!standalone || parts[0] == standaloneName)
                    && (parts[1] == "contents" || parts[1] == "elements"))
        }
        guard !listed.isEmpty else { return nil }
        // A file as reported: under the bundle's display path (a lone version's is the version folder itself).
        func shown(_ inner: String) -> String {
            standalone
                ? displayPath + "/" + inner.split(separator: "/").dropFirst().joined(separator: "/")
                : "\(displayPath)/\(inner)"
        }
        // A version the caller knows is byte for byte the work tree's is the work tree's version: the same bytes
        // parse to the same model, and both are shown at the same path. Neither fetched nor parsed.
        var reused: [ExactName: ModelVersion] = [:]
        let wanted = listed.filter { entry in
            let inner = String(entry.path.dropFirst(prefix.count))
            let parts = inner.split(separator: "/")
            guard !standalone, parts.count == 2, parts[1] == "contents",
                let known = workTree?.identical[ExactName(String(parts[0].dropLast(".xcdatamodel".count)))],
                case .model = known.content
            else { return true }
            reused[ExactName(known.name)] = known
            return false
        }
        // The index's blobs are mostly the work tree's files as they are (a commit stages what was saved): a file
        // whose git blob id is the index's is that blob, byte for byte, wherever it was read from, and git is not
        // asked for it.
        var known: [Int: Data] = [:]
        if case .index = snapshot {
            let toplevel = toplevel
            let fromWorkTree = concurrentMap(wanted) { entry -> Data? in
                guard let data = try? FileReader.read(toplevel + "/" + entry.path, limit: FileReader.Limit.contents),
                    GitBlobID.of([UInt8](data), like: entry.sha) == entry.sha
                else { return nil }
                return data
            }
            for (i, data) in fromWorkTree.enumerated() where data != nil { known[i] = data }
        }
        let asked = wanted.indices.filter { known[$0] == nil }
        // A blob over the cap for its kind of file is refused, as on disk: one `cat-file --batch` whose output may
        // not exceed every blob at its cap; past that, sizes first and only the blobs under the cap.
        var sizes = wanted.indices.map { known[$0]?.count ?? 0 }
        var contents: [Data?] = wanted.indices.map { known[$0] }
        if let read = try catFiles(asked.map { wanted[$0].sha }, limitEach: FileReader.Limit.contents) {
            for (i, blob) in zip(asked, read) {
                sizes[i] = blob.size
                contents[i] = blob.size <= FileReader.Limit.contents ? blob.data : nil
            }
        } else {
            let askedSizes = try blobSizes(asked.map { wanted[$0].sha })
            let fetched = zip(asked, askedSizes).filter { $0.1 <= FileReader.Limit.contents }.map { wanted[$0.0].sha }
            var fetchedData = try catFiles(fetched).makeIterator()
            for (i, size) in zip(asked, askedSizes) {
                sizes[i] = size
                contents[i] = size <= FileReader.Limit.contents ? fetchedData.next() : nil
            }
        }

        var versions: [String: VersionContent] = [:]
        var pointer: (ModelBundle.CurrentVersionFile, String?) = (.absent, nil)
        // The `contents` files are parsed on both cores, sharing what one version's unchanged entities cost to
        // build, as the work tree's are (and with the work tree's, when the caller shares its cache).
        let parsing = zip(wanted, contents).enumerated().compactMap { index, item -> (Int, Data, String)? in
            let inner = String(item.0.path.dropFirst(prefix.count))
            guard let data = item.1, inner.hasSuffix("/contents") else { return nil }
            return (index, data, shown(inner))
        }
        var parsed: [Int: VersionContent] = [:]
        for (index, content) in zip(
            parsing.map(\.0), concurrentMap(parsing) { ContentsParser.parse(data: $0.1, path: $0.2, cache: cache) })
        {
            parsed[index] = content
        }
        for (index, ((entry, data), size)) in zip(zip(wanted, contents), sizes).enumerated() {
            let inner = String(entry.path.dropFirst(prefix.count))
            guard let data else {
                let parts = inner.split(separator: "/")
                if parts.count == 2 {
                    versions[String(parts[0].dropLast(".xcdatamodel".count))] = .malformed(
                        reason: "\(FileReader.ReadError.tooLarge(size: size, limit: FileReader.Limit.contents))",
                        location: SourceLocation(file: shown(inner)))
                }
                continue
            }
            if inner == ".xccurrentversion" {
                pointer = CurrentVersionReader.parse(data)
                continue
            }
            let parts = inner.split(separator: "/")
            let name = String(parts[0].dropLast(".xcdatamodel".count))
            if parts[1] == "elements" {
                if versions[name] == nil { versions[name] = .legacy }
            } else {
                versions[name] = parsed[index]
            }
        }
        // As a `contents` file does, a reused one outranks a legacy `elements` file beside it.
        for version in reused.values { versions[version.name] = version.content }
        if standalone, let (name, content) = versions.first {
            return ModelBundle(
                path: displayPath,
                versions: [
                    ModelVersion(
                        name: name, folderPath: displayPath, contentsPath: "\(displayPath)/contents", content: content)
                ], declaredCurrentVersion: name, currentVersionFile: .present)
        }
        let names =
            decided.map { VersionOrder.sorted(Array(versions.keys), following: $0) }
            ?? VersionOrder.sorted(Array(versions.keys), explicit: versionOrder)
        var read = ModelBundle(
            path: displayPath,
            versions: names.map {
                reused[ExactName($0)]
                    ?? ModelVersion(
                        name: $0, folderPath: "\(displayPath)/\($0).xcdatamodel",
                        contentsPath: "\(displayPath)/\($0).xcdatamodel/contents", content: versions[$0]!)
            },
            declaredCurrentVersion: pointer.1, currentVersionFile: pointer.0)
        read.workTreeVersions = Set(reused.keys)
        return read
    }

    /// What git remembers of the versions of the bundle at `path`: when each was first added (a rank: smaller is
    /// earlier; one commit, one rank) and every version `.xccurrentversion` named, oldest first. A commit that
    /// moved the bundle (its versions renamed from another folder, or a version renamed) is followed to where they
    /// came from, as `git log --follow` cannot for a folder: the history before it is read at the old path, its
    /// names translated to today's. Two git processes per place the bundle has lived, and one per move.
    package func versionHistory(bundleAt path: String) -> VersionOrderEvidence.GitHistory {
        guard var relative = PathTools.relative(PathTools.standardize(path), to: toplevel) else {
            return VersionOrderEvidence.GitHistory()
        }
        var history = VersionOrderEvidence.GitHistory()
        var revision: String?
        var commits = 0
        // Older names -> today's.
        var today: [String: String] = [:]
        let overLimit = "git's answer passed \(Self.historyOutputLimit >> 20) MB"
        for _ in 0..<16 {
            let range = revision.map { [$0] } ?? []
            guard
                let log = GitRepository.run(
                    [
                        "log", "--topo-order", "--no-renames", "--diff-filter=A", "--no-ext-diff", "--no-textconv",
                        "--format=%x01%H", "--name-only", "-z",
                    ] + range + ["--", relative], in: toplevel, repository: self, input: nil,
                    outputLimit: Self.historyOutputLimit)
            else {
                history.skipped.append("the commits that added versions at \(relative) (\(overLimit))")
                break
            }
            guard log.status == 0 else { break }
            outputRead.withLock { $0 += log.output.count }
            var oldest: String?
            var commit: String?
            let prefix = relative + "/"
            for record in String(decoding: log.output, as: UTF8.self).split(separator: "\0") {
                var text = Substring(record)
                while text.first == "\n" { text = text.dropFirst() }
                if text.hasPrefix("\u{1}") {
                    // "\u{1}<hash>\n<first path>" when a commit's header and its first path share a record. Commits
                    // come newest first: ranked by position, not time (commits made in one second tie).
                    let header = text.dropFirst().prefix { $0 != "\n" }
                    commit = String(header)
                    commits += 1
                    text = text.dropFirst(header.count + 1).drop { $0 == "\n" }
                    if text.isEmpty { continue }
                }
                guard let commit, text.hasPrefix(prefix) else { continue }
                let folder = text.dropFirst(prefix.count).split(separator: "/").first.map(String.init) ?? ""
                guard folder.hasSuffix(".xcdatamodel") else { continue }
                let added = String(folder.dropLast(".xcdatamodel".count))
                let name = today[added] ?? added
                history.firstAdded[name] = min(history.firstAdded[name] ?? .max, -commits)
                oldest = commit
            }
            let pointer = currentVersionsNamed(at: relative + "/.xccurrentversion", revision: revision)
            history.currentVersions = pointer.names.map { today[$0] ?? $0 } + history.currentVersions
            history.skipped += pointer.skipped
            // The commit that first added versions here: did it rename them from somewhere else?
            guard let oldest else { break }
            let renamed = renames(into: relative, at: oldest)
            if renamed.overLimit { history.skipped.append("the renames of commit \(oldest.prefix(12)) (\(overLimit))") }
            guard let moved = renamed.moved else { break }
            for (old, new) in moved.names { today[old] = today[new] ?? new }
            guard moved.folder != relative else { break }
            relative = moved.folder
            revision = oldest + "^"
        }
        return history
    }

    /// Every version `.xccurrentversion` at `relative` named, oldest first (one `git log -p`): the name each
    /// commit's version of the file added.
    /// Blob ids first (`git log --raw`, a line per commit whatever the file holds), then the contents of the
    /// distinct blobs under `pointerLimit` bytes (one `cat-file --batch`): a pointer rewritten as a huge file is
    /// skipped, never read. A commit counts when its pointer names another version than the one before it.
    private func currentVersionsNamed(at relative: String, revision: String?) -> (names: [String], skipped: [String]) {
        let log = GitRepository.run(
            [
                "log", "--topo-order", "--no-renames", "--no-ext-diff", "--no-textconv", "--format=%x01", "--raw",
                "--no-abbrev",
            ] + (revision.map { [$0] } ?? []) + ["--", relative], in: toplevel, repository: self,
            input: nil, outputLimit: Self.historyOutputLimit)
        guard let log else {
            return (
                [],
                [
                    "the history of \(relative) (git's answer passed \(Self.historyOutputLimit >> 20) MB)"
                ]
            )
        }
        guard log.status == 0 else { return ([], []) }
        outputRead.withLock { $0 += log.output.count }
        // Newest first: each commit's blob after it (nil: the pointer deleted).
        var blobs: [String?] = []
        for commit in String(decoding: log.output, as: UTF8.self).split(separator: "\u{1}") {
            // ":<old mode> <new mode> <old blob> <new blob> <status>\t<path>"
            guard let line = commit.split(separator: "\n").first(where: { $0.hasPrefix(":") }) else { continue }
            let fields = line.split(separator: "\t").first?.split(separator: " ") ?? []
            guard fields.count >= 4 else { continue }
            let blob = String(fields[3])
            blobs.append(blob.allSatisfy { $0 == "0" } ? nil : blob)
        }
        let distinct = Array(Set(blobs.compactMap { $0 })).sorted()
        guard let sizes = try? blobSizes(distinct) else { return ([], []) }
        let small = zip(distinct, sizes).filter { $0.1 <= Self.pointerLimit }.map(\.0)
        var skipped: [String] = []
        if small.count < distinct.count {
            let large = distinct.count - small.count
            skipped.append(
                "\(large) version\(large == 1 ? "" : "s") of \(relative) over \(Self.pointerLimit >> 10) KB (a pointer is a few hundred bytes)"
            )
        }
        guard let contents = try? catFiles(small, limitEach: Self.pointerLimit) else { return ([], skipped) }
        var named: [String: String] = [:]
        for (blob, content) in zip(small, contents) {
            let text = String(decoding: content.data, as: UTF8.self)
            guard let open = text.range(of: "<string>"), let close = text.range(of: ".xcdatamodel</string>"),
                open.upperBound <= close.lowerBound
            else { continue }
            named[blob] = String(text[open.upperBound..<close.lowerBound])
        }
        var names: [String] = []
        var previous: String?
        for blob in blobs.reversed() {
            let name = blob.flatMap { named[$0] }
            if let name, name != previous { names.append(name) }
            previous = name
        }
        return (names, skipped)
    }

    /// A `.xccurrentversion` is a few hundred bytes; one over this is not read for the version history.
    static let pointerLimit = 64 << 10
    /// The most output one history query may produce before it is stopped (and its evidence left out).
    static let historyOutputLimit = 64 << 20

    /// The versions `commit` renamed into the bundle folder `relative` (git's rename detection against its first
    /// parent): the folder they came from (the last one seen), and old version name -> new.
    private func renames(into relative: String, at commit: String) -> (
        moved: (folder: String, names: [(String, String)])?, overLimit: Bool
    ) {
        // Exact renames always; inexact ones only among a few hundred files (git's `-l`): similarity over thousands
        // of large files would cost minutes for a clue.
        guard
            let diff = GitRepository.run(
                ["diff-tree", "-M", "-l400", "-r", "--no-commit-id", "--name-status", "-z", commit], in: toplevel,
                repository: self, input: nil, outputLimit: Self.historyOutputLimit)
        else { return (nil, true) }
        guard diff.status == 0 else { return (nil, false) }
        func split(_ path: String) -> (bundle: String, version: String, rest: String)? {
            guard let range = path.range(of: ".xcdatamodel/", options: .backwards) else { return nil }
            let folderStart = path[..<range.lowerBound].lastIndex(of: "/")
            let version = String(
                path[(folderStart.map { path.index(after: $0) } ?? path.startIndex)..<range.lowerBound])
            let bundle = folderStart.map { String(path[..<$0]) } ?? ""
            return (bundle, version, String(path[range.upperBound...]))
        }
        var folder: String?
        var names: [(String, String)] = []
        for rename in Self.renames(inNameStatus: diff.output) {
            guard let old = split(rename.old), let new = split(rename.new), new.bundle == relative, old.rest == new.rest
            else { continue }
            folder = old.bundle
            if old.version != new.version { names.append((old.version, new.version)) }
        }
        return (folder.map { ($0, names) }, false)
    }

    /// The Swift files under `folder` (absolute, inside this repository) at `commit`, by the absolute path they would
    /// have in the work tree, with their bytes; files over `limit` are left out (as on disk). Two git processes.
    package func swiftFiles(under folder: String, commit: String, limit: Int) throws -> [(path: String, data: Data)] {
        guard let relative = PathTools.relative(PathTools.standardize(folder), to: toplevel) else { return [] }
        var arguments = ["ls-tree", "-r", "-z", "--full-tree", "-l", commit]
        if !relative.isEmpty && relative != "." { arguments += ["--", relative] }
        let listing = run(arguments)
        guard listing.status == 0 else { throw GitError(message: "git ls-tree failed for \(relative) at \(commit)") }
        // "<mode> <type> <sha> <size>"
        let blobs: [(path: String, sha: String)] = Self.records(listing.output).compactMap { fields, path in
            guard fields.count == 4, fields[1] == "blob", path.hasSuffix(".swift"), let size = Int(fields[3]),
                size <= limit
            else { return nil }
            return (path, String(fields[2]))
        }
        let contents = try catFiles(blobs.map(\.sha))
        return zip(blobs, contents).map { (toplevel + "/" + $0.0.path, $0.1) }
    }

    /// The bytes of the file at `relative` (a path from the top) at `commit`; nil when the commit has no such file or
    /// it is bigger than `limit`.
    package func fileBytes(_ relative: String, at commit: String, limit: Int) throws -> Data? {
        let listing = run(["ls-tree", "-z", "--full-tree", "-l", commit, "--", relative])
        guard listing.status == 0 else { throw GitError(message: "git ls-tree failed for \(relative) at \(commit)") }
        // "<mode> <type> <sha> <size>"
        guard
            let record = Self.records(listing.output).first(where: {
                $0.path == relative && $0.fields.count == 4 && $0.fields[1] == "blob"
            }), let size = Int(record.fields[3]), size <= limit
        else { return nil }
        return try catFiles([String(record.fields[2])]).first
    }

    /// The commits that changed the file at `relative` (a path from the top), newest first, at most `limit`.
    package func commits(touching relative: String, limit: Int) throws -> [String] {
        let log = run(["log", "--format=%H", "-n", String(limit), "--", relative])
        guard log.status == 0 else { throw GitError(message: "git log failed for \(relative)") }
        return String(decoding: log.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Files of the index at these paths (every file when nil; pathspecs are literal here) that `wanted` accepts, by
    /// absolute path, with their staged bytes; files over `limit` left out. Two git processes (three when a file is
    /// over the limit).
    package func indexFiles(
        _ paths: [String]?, limit: Int, where wanted: (String) -> Bool = { _ in true }
    ) throws -> [(path: String, data: Data)] {
        if let paths, paths.isEmpty { return [] }
        let listing = run(["ls-files", "--stage", "-z", "--full-name", "--"] + (paths ?? []))
        guard listing.status == 0 else { throw GitError(message: "git ls-files failed: \(listing.error)") }
        // "<mode> <sha> <stage>"; a conflicted path is read at its "ours" side (2).
        let entries: [(path: String, sha: String)] = Self.records(listing.output).compactMap { fields, path in
            guard fields.count == 3, fields[0].hasPrefix("100"), fields[2] == "0" || fields[2] == "2", wanted(path)
            else { return nil }
            return (path, String(fields[1]))
        }
        guard !entries.isEmpty else { return [] }
        if let read = try catFiles(entries.map(\.sha), limitEach: limit) {
            return zip(entries, read).filter { $0.1.size <= limit }.map { (toplevel + "/" + $0.0.path, $0.1.data) }
        }
        let sizes = try blobSizes(entries.map(\.sha))
        let wanted = zip(entries, sizes).filter { $0.1 <= limit }.map(\.0)
        let contents = try catFiles(wanted.map(\.sha))
        return zip(wanted, contents).map { (toplevel + "/" + $0.0.path, $0.1) }
    }

    /// One `git cat-file --batch-check` for every blob's size.
    package func blobSizes(_ shas: [String]) throws -> [Int] {
        guard !shas.isEmpty else { return [] }
        let result = run(["cat-file", "--batch-check"], input: Data((shas.joined(separator: "\n") + "\n").utf8))
        guard result.status == 0 else { throw GitError(message: "git cat-file failed") }
        let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n")
        guard lines.count == shas.count else { throw GitError(message: "unexpected git cat-file output") }
        return try lines.map { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let size = Int(fields[2]) else { throw GitError(message: "git cat-file: \(line)") }
            return size
        }
    }

    /// One `git cat-file --batch` for every blob, its output bounded by `limitEach` bytes a blob (and its header):
    /// nil when a blob is bigger, so the caller asks for sizes first.
    package func catFiles(_ shas: [String], limitEach: Int) throws -> [(size: Int, data: Data)]? {
        guard !shas.isEmpty else { return [] }
        let input = Data((shas.joined(separator: "\n") + "\n").utf8)
        let result = GitRepository.run(
            ["cat-file", "--batch"], in: toplevel, repository: self, input: input,
            outputLimit: shas.count * (limitEach + 128))
        guard let result else { return nil }
        outputRead.withLock { $0 += result.output.count }
        guard result.status == 0 else { throw GitError(message: "git cat-file failed") }
        return try Self.batchRecords(result.output, count: shas.count).map { record in
            (record.size, record.data)
        }
    }

    /// `count` records of `cat-file --batch` output: "<sha> <type> <size>\n<bytes>\n" each.
    static func batchRecords(_ bytes: Data, count: Int) throws -> [(size: Int, data: Data)] {
        var out: [(Int, Data)] = []
        var cursor = bytes.startIndex
        for _ in 0..<count {
            guard let newline = bytes[cursor...].firstIndex(of: 0x0A),
                let header = String(data: bytes[cursor..<newline], encoding: .utf8)
            else { throw GitError(message: "unexpected git cat-file output") }
            let fields = header.split(separator: " ")
            guard fields.count == 3, let size = Int(fields[2]) else {
                throw GitError(message: "git cat-file: \(header)")
            }
            let start = bytes.index(after: newline)
            let end = start + size
            guard end <= bytes.endIndex else { throw GitError(message: "git cat-file output is truncated") }
            out.append((size, Data(bytes[start..<end])))
            cursor = min(end + 1, bytes.endIndex)
        }
        return out
    }

    /// One `git cat-file --batch` for every blob.
    package func catFiles(_ shas: [String]) throws -> [Data] {
        guard !shas.isEmpty else { return [] }
        let input = Data((shas.joined(separator: "\n") + "\n").utf8)
        let result = run(["cat-file", "--batch"], input: input)
        guard result.status == 0 else { throw GitError(message: "git cat-file failed") }
        return try Self.batchRecords(result.output, count: shas.count).map(\.data)
    }

    /// Every file under `relative` (a path from the top) at `commit`: `ls-tree -r`, asked once per run.
    func treeListing(of relative: String, at commit: String) -> (status: Int32, output: Data, error: String) {
        let key = commit + "\u{0}" + relative
        if let known = treeListings.withLock({ $0[key] }) { return known }
        let listing = run(["ls-tree", "-r", "-z", "--full-tree", commit, "--", relative])
        treeListings.withLock { $0[key] = listing }
        return listing
    }

    /// Runs git in this repository, with its git directory and work tree given explicitly.
    package func run(_ arguments: [String], input: Data? = nil) -> (status: Int32, output: Data, error: String) {
        let result = GitRepository.run(arguments, in: toplevel, repository: self, input: input)
        outputRead.withLock { $0 += result.output.count }
        return result
    }

    /// `git` resolved once from the absolute entries of `PATH`: an empty or relative entry would let a committed
    /// file named `git` in the repository run instead.
    package static let executable: String? = {
        let path = ProcessEnvironment.value("PATH") ?? "/usr/bin:/bin"
        for entry in path.split(separator: ":", omittingEmptySubsequences: true) where entry.hasPrefix("/") {
            let candidate = String(entry) + "/git"
            if FileReader.kind(at: candidate) == .regular, FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return nil
    }()

    /// A repository's own configuration can name commands git runs while reading: the file-system monitor
    /// (`ls-files`), hooks (an index written by `ls-files` runs post-index-change), external diff and textconv
    /// drivers, filters, pagers, transports. modellint only reads, so every one of them is switched off.
    package static let neutralised = [
        "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "-c", "core.hooksPath=/dev/null",
        "-c", "core.pager=cat", "-c", "diff.external=", "-c", "protocol.allow=never", "-c", "core.sshCommand=false",
        "-c", "gc.auto=0", "-c", "maintenance.auto=false", "--no-replace-objects",
    ]

    /// Runs git with arguments as an array: no shell ever sees them. Pathspecs are literal (a folder named
    /// `:(top)x` or `:!x` is a path, not magic); implicit bare repositories are refused.
    package static func run(_ arguments: [String], in directory: String, repository: GitRepository?, input: Data? = nil)
        -> (status: Int32, output: Data, error: String)
    {
        run(arguments, in: directory, repository: repository, input: input, outputLimit: nil)
            ?? (-1, Data(), "")
    }

    /// As `run`, nil when the output passed `outputLimit` bytes (git is stopped there).
    package static func run(
        _ arguments: [String], in directory: String, repository: GitRepository?, input: Data?, outputLimit: Int?
    ) -> (status: Int32, output: Data, error: String)? {
        guard let executable else { return (-1, Data(), "") }
        // `-C`, not a change of directory: the folder is an argument like the rest.
        var prefix =
            ["-C", directory, "-c", "safe.bareRepository=explicit", "--literal-pathspecs", "--no-pager"] + neutralised
        if let repository { prefix += ["--git-dir=" + repository.gitDirectory, "--work-tree=" + repository.toplevel] }
        guard
            let result = Subprocess.run(
                executable, prefix + arguments, environment: environment, input: input, outputLimit: outputLimit)
        else {
            return (-1, Data(), "")
        }
        if result.outputLimitReached { return nil }
        return (result.status, result.output, String(decoding: result.error, as: UTF8.self))
    }

    /// The process's environment, but for what could choose another repository or wait for a password.
    private static var environment: [String: String] {
        var environment = ProcessEnvironment.all()
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        // The repository is chosen by the arguments, never by the environment.
        for key in [
            "GIT_DIR", "GIT_WORK_TREE", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
        ] { environment[key] = nil }
        return environment
    }

    /// The options of the read-only queries a `check` run makes (`rev-parse`, `ls-files`, `log`, `ls-tree`,
    /// `diff-tree`, `diff`): none runs a program, writes a file or reads configuration from its arguments.
    private static let queryOptions: Set<String> = [
        "--show-toplevel", "--absolute-git-dir", "--is-shallow-repository", "--verify", "--quiet", "--cached",
        "--others", "--exclude-standard", "-z", "--stage", "--full-name", "--topo-order", "--no-renames",
        "--diff-filter=A", "--no-ext-diff", "--no-textconv", "--format=%x01%H", "--format=%x01", "--name-only", "-p",
        "-M", "-r", "--no-commit-id", "--name-status", "--full-tree", "-l", "--raw", "--no-abbrev", "-l400",
    ]
    private static let querySubcommands: Set<String> = ["rev-parse", "ls-files", "log", "ls-tree", "diff-tree", "diff"]

    /// Whether a logged argument list is one `run` makes for a read-only query: `run`'s own prefix (its folder,
    /// then the fixed options that switch off everything a repository could make git run), the repository's git
    /// directory and work tree, a query subcommand, then only known options and object ids up to `--` (paths) or
    /// `--end-of-options` (one revision). A cache entry is data: nothing else it holds is ever run.
    package static func isReadOnlyQuery(_ arguments: [String]) -> Bool {
        let fixed = ["-c", "safe.bareRepository=explicit", "--literal-pathspecs", "--no-pager"] + neutralised
        guard arguments.count > 2 + fixed.count, arguments[0] == "-C", arguments[1].hasPrefix("/"),
            Array(arguments[2..<(2 + fixed.count)]) == fixed
        else { return false }
        var rest = arguments[(2 + fixed.count)...]
        if let first = rest.first, first.hasPrefix("--git-dir=/") {
            rest = rest.dropFirst()
            guard let tree = rest.first, tree.hasPrefix("--work-tree=/") else { return false }
            rest = rest.dropFirst()
        }
        guard let subcommand = rest.first, querySubcommands.contains(subcommand) else { return false }
        var options = rest.dropFirst()
        while let option = options.first {
            options = options.dropFirst()
            if option == "--" { return true }
            if option == "--end-of-options" { return options.count == 1 }
            guard queryOptions.contains(option) || isObjectID(option) else { return false }
        }
        return true
    }

    /// 40 or 64 lowercase hexadecimal digits: a commit as git prints it.
    private static func isObjectID(_ text: String) -> Bool {
        (text.utf8.count == 40 || text.utf8.count == 64)
            && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// A git command a run logged (`InputLog`), run again as it was: whether it still answers the same. Nothing
    /// that is not this git is run.
    package static func answersAsLogged(_ logged: InputLog.Command) -> Bool {
        guard logged.executable == executable, isReadOnlyQuery(logged.arguments),
            let result = Subprocess.run(logged.executable, logged.arguments, environment: environment),
            !result.outputLimitReached
        else { return false }
        let again = InputLog.Command(
            executable: logged.executable, arguments: logged.arguments, status: result.status, output: result.output,
            error: result.error)
        return again == logged
    }
}
