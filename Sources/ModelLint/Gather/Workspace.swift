import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// What `check` reads before the linter judges it: the bundles that paths select, the mapping models, projects and
/// Swift files around them, the shipped-version records, the lock file's bundles on disk and the golden stores.
/// The one place a check touches the file system and git; the linter gets a `LintInput`.
package struct Workspace: Sendable {
    package var configuration: Configuration
    /// Where shipped versions are recorded: the lock file, and git revisions.
    package var history: HistoryOptions
    package var workingDirectory: String
    /// Set for `--pre-commit`: bundles are read from this repository's index (what is being committed).
    package var stagedIn: GitRepository?
    /// Set for `--pre-commit`: bundles the commit deletes whole; a lock entry for one is judged.
    package var deletedBundles: [String] = []
    /// Where big files' readings are kept between runs (none unless the command asks: `check` does, but `--no-cache`).
    package var cache = ResultCache(folder: nil)
    /// Set for `--pre-commit`: the index entries already listed for these bundles (absolute paths).
    package var stagedListing: (entries: Data, bundles: Set<String>) = (Data(), [])
    /// Set for `--pre-commit`: the staged Swift files (relative to the repository); when one mentions SwiftData, the
    /// index's Swift files are read for schema sets.
    package var stagedSwiftFiles: [String] = []
    /// A run split by configuration: the paths the whole run was given, searched for SwiftData schemas by the one
    /// part that reads them (the others read only their bundles, whose paths select no Swift folder).
    package var swiftDataSearch: [String]?
    /// A gate run's revision (`--against`, HEAD for `--pre-commit`): the configuration, lock file and baseline
    /// there are the floor the change is held to (`ConfigurationFloor`).
    package var gateRevision: String?
    /// The baseline in force (absolute), compared with the same file at `gateRevision`.
    package var baselineFile: String?

    package init(configuration: Configuration, history: HistoryOptions = HistoryOptions(), workingDirectory: String) {
        self.configuration = configuration
        self.history = history
        self.workingDirectory = workingDirectory
    }

    /// A golden store that cannot be read: the configuration names it, so the run cannot judge what it asks.
    package struct UnreadableStore: Error, CustomStringConvertible {
        package var description: String
    }

    /// Finds and reads everything `paths` select.
    package func read(paths: [String]) throws -> LintInput {
        let finder = BundleFinder(
            workingDirectory: workingDirectory, exclude: configuration.exclude,
            excludeBase: configuration.baseDirectory,
            walker: DirectoryWalker(budget: configuration.walkBudget))
        // A pre-commit run whose commit touches only Swift files lints no bundle: nothing is searched.
        let (selections, swiftFiles) =
            stagedIn != nil && paths.isEmpty ? ([], []) : try finder.selections(for: paths)
        let files = RepositoryFiles(
            walker: finder.walker, repositories: history.repositories, isExcluded: { finder.isExcluded($0) },
            index: stagedIn.flatMap { stagedListing.entries.isEmpty ? nil : ($0.toplevel, stagedListing.entries) },
            cache: cache)
        var bundles: [LintInput.Bundle] = []
        // Each project file is read once per run, however many bundles it lists, on the other core while this one
        // reads the bundles: a big project costs what the bundles of a pre-commit run do.
        let projectsRead = ProjectsRead()
        let projectsReady = Pending { [self] in
            for selection in selections {
                _ = projects(referencing: selection.absolutePath, files: files, read: projectsRead)
            }
        }
        // The mapping models too: matching them waits for the bundles, reading them does not.
        let mappingModelsReady = Pending { [configuration] in
            files.readMappingModels(
                near: selections.map(\.absolutePath), configuredFolders: configuration.mappingModels)
        }
        // And the Swift files (hundreds in an app, each `stat`ed and most taken from the cache). A pre-commit run
        // reads the index, not the work tree: the work tree's Swift files are not the commit's.
        let searched =
            stagedIn != nil ? [] : try swiftDataSearch.map { try finder.selections(for: $0).swiftFiles } ?? swiftFiles
        let swiftFilesRead = Pending { [self] in readSwiftFiles(near: selections, searched: searched, files: files) }
        defer { swiftFilesRead.wait() }
        for selection in selections {
            let url = URL(fileURLWithPath: selection.absolutePath)
            let settings = configuration.settings(forBundleAt: selection.absolutePath)
            // One per bundle, for its work tree and its revisions: the versions at a revision repeat the work tree's.
            let sourceCache = EntitySourceCache()
            // Git's first answers about the revisions compared with, asked while the work tree's bundle is read.
            let revisionFacts =
                history.comparesRevisions
                ? Pending { [history, workingDirectory] in
                    history.revisionFacts(forBundleAt: selection.absolutePath, workingDirectory: workingDirectory)
                } : nil
            defer { revisionFacts?.wait() }
            var bundle: ModelBundle
            if let stagedIn {
                // Not in the index: untracked, so not part of the commit.
                guard
                    let staged = try stagedIn.bundle(
                        atPath: selection.absolutePath,
                        in: .index(
                            displayPath: selection.displayPath,
                            listing: stagedListing.bundles.contains(selection.absolutePath)
                                ? stagedListing.entries : nil),
                        versionOrder: settings?.versionOrder, following: nil, cache: sourceCache)
                else { continue }
                bundle = staged
            } else {
                bundle = BundleLoader.load(
                    bundleURL: url, displayPath: selection.displayPath, versionOrder: settings?.versionOrder,
                    cache: sourceCache)
            }
            try settings?.validate(against: bundle, file: configuration.filePath ?? ".modellint.json")
            mappingModelsReady.wait()
            let (mappingSources, mappingModels, staleMappingModels) = files.matchedMappingModels(
                for: selection.absolutePath, versions: bundle.readableVersions,
                configuredFolders: configuration.mappingModels,
                display: { PathTools.relative($0, to: workingDirectory) ?? $0 })
            if settings?.versionOrder == nil {
                bundle = bundle.orderedByEvidence(
                    mappingModels, bundleAt: selection.absolutePath, repositories: history.repositories)
            }
            // The bundle at a revision (`--against`, `--released`) is ordered as the work tree's evidence orders it:
            // one order for both trees, so a pair means the same two versions on both sides.
            let histories = try history.histories(
                forBundleAt: selection.absolutePath, decidedOrder: bundle.versions.map(\.name),
                workingDirectory: workingDirectory, sourceCache: sourceCache, workTree: bundle,
                digestCache: stagedIn == nil ? cache : nil, revisionFacts: revisionFacts?.value)
            projectsReady.wait()
            bundles.append(
                LintInput.Bundle(
                    bundle: bundle, settings: settings, mappingModels: mappingModels,
                    unmatchedMappingModels: staleMappingModels, mappingModelSources: mappingSources,
                    histories: histories,
                    projects: projects(referencing: selection.absolutePath, files: files, read: projectsRead)))
        }
        let swift = swiftFilesRead.value
        for group in searched {
            let sets = SwiftDataLoader.sets([group]) { swift.parsed[$0] }
            guard !sets.isEmpty else { continue }
            let (read, histories) = try swiftDataHistories(of: sets, root: group.root)
            for (set, shipped) in zip(read, histories) {
                var item = LintInput.Bundle(swiftData: set, histories: shipped)
                item.swiftDataRoot = group.root
                bundles.append(item)
            }
        }
        if let stagedIn, !stagedSwiftFiles.isEmpty {
            let (read, histories) = try swiftDataHistories(
                of: try stagedSwiftData(in: stagedIn), root: stagedIn.toplevel)
            for (set, shipped) in zip(read, histories) {
                bundles.append(LintInput.Bundle(swiftData: set, histories: shipped))
            }
        }
        var input = LintInput(bundles: LintInput.droppingUnmatchedMappedElsewhere(bundles))
        input.tooLargeSwiftFiles = swift.tooLarge
        input.managedObjectClasses = SwiftDataLoader.managedObjectClasses(searched) { swift.parsed[$0] }
        if let lock = history.lock {
            // A key still absolute after loading names a folder outside the lock file's: it matches no bundle.
            // SwiftData sets are on disk when this run read them, or when the file their key names is not one it searched.
            let readSets = Set(bundles.compactMap { $0.swiftData.map { ExactName(swiftDataLockKey($0)) } })
            let searchedFiles = Set(searched.flatMap(\.files))
            input.lock = LintInput.Lock(
                file: lock, path: history.lockPath,
                bundleKeysOnDisk: Set(
                    lock.bundles.keys.filter { key in
                        if let hash = key.string.lastIndex(of: "#"), key.string[..<hash].hasSuffix(".swift") {
                            let file = PathTools.absolute(
                                String(key.string[..<hash]), relativeTo: history.lockDirectory)
                            return readSets.contains(key)
                                || (!searchedFiles.contains(file) && FileReader.kind(at: file) == .regular)
                        }
                        return !key.string.hasPrefix("/") && key.string.hasSuffix(".xcdatamodeld")
                            && FileReader.kind(at: PathTools.absolute(key.string, relativeTo: history.lockDirectory))
                                == .directory
                    }))
            input.lock?.judgedWithoutBundles = deletedBundles.contains { bundle in
                PathTools.relative(bundle, to: history.lockDirectory).map {
                    lock.bundles[ExactName(LockFile.normalizedKey($0))] != nil
                } ?? false
            }
        }
        (input.sourceReferences, input.outsidePaths) = (swift.references, swift.outside)
        let loadedByName = Set(
            swift.references.compactMap { reference -> String? in
                if case .modelName(let name) = reference.kind { return name } else { return nil }
            })
        let foundBySearch = Dictionary(
            selections.compactMap { s in s.searchRoot.map { (s.displayPath, (s.absolutePath, $0)) } },
            uniquingKeysWith: { a, _ in a })
        for i in input.bundles.indices where input.bundles[i].swiftData == nil {
            guard let (absolutePath, searchRoot) = foundBySearch[input.bundles[i].bundle.path] else { continue }
            input.bundles[i].bundle.unshippedReason = unshippedReason(
                absolutePath, searchRoot: searchRoot, projects: input.bundles[i].projects,
                loadedByName: loadedByName,
                versionFolders: input.bundles[i].bundle.versions.map { ($0.folderPath as NSString).lastPathComponent },
                files: files)
        }
        (input.configurationChanges, input.revisionRuleLevels) = try configurationChanges(
            bundles: selections.filter { !$0.absolutePath.hasSuffix(".swift") }.map(\.absolutePath))
        input.goldenStores = selections.isEmpty ? [] : try goldenStores()
        // The mapping models, projects and Swift files around the bundles come from the same budget.
        try finder.walker.requireComplete(workingDirectory: workingDirectory)
        input.unreadablePaths = finder.walker.unreadableNames
        return input
    }

    /// Folders whose bundles no build ships: documentation and test fixtures (docs/rules/bundle-not-shipped.md).
    static let unshippedFolders: Set<String> = [".github", "docs", "doc", "documentation", "fixtures", "testfixtures"]

    /// Why nothing builds a bundle a search found, when that can be told: it sits in a documentation or
    /// test-fixture folder below the search root; or, in a tree with an Xcode project, no project's version group,
    /// CocoaPods spec, package manifest or project spec above it, and no code that loads it by name (or merges every
    /// bundle) references it. nil: it ships, or nothing decides.
    func unshippedReason(
        _ bundle: String, searchRoot: String, projects: [(project: XcodeProject, bundlePath: String)],
        loadedByName: Set<String>, versionFolders: [String], files: RepositoryFiles
    ) -> String? {
        let parent = (bundle as NSString).deletingLastPathComponent
        if let relative = PathTools.relative(parent, to: searchRoot),
            let folder = relative.split(separator: "/").first(where: { Self.unshippedFolders.contains($0.lowercased()) }
            )
        {
            return "it is in a \(folder) folder (documentation or test fixtures), which no build ships"
        }
        guard configuration.projects != [] else { return nil }
        let name = ((bundle as NSString).lastPathComponent as NSString).deletingPathExtension
        if projects.contains(where: { $0.project.group(forBundleAt: $0.bundlePath) != nil })
            || loadedByName.contains(name) || loadedByName.contains("")
        {
            return nil
        }
        // A CocoaPods spec above the bundle that lists it ships it with the pod; one whose file patterns cannot all
        // be read leaves the question open.
        for spec in files.podspecs(near: bundle) {
            let folder = (spec as NSString).deletingLastPathComponent
            guard let relative = PathTools.relative(bundle, to: folder) else { continue }
            guard let bytes = try? FileReader.readBytes(spec, limit: Podspec.sizeLimit) else { return nil }
            let read = spec.hasSuffix(".json") ? Podspec.readJSON(bytes) : Podspec.readRuby(bytes)
            guard let read, read.isComplete, !read.ships(relative, versionFolders: versionFolders) else { return nil }
        }
        let root = files.root(near: bundle)
        var folder = parent
        while true {
            let specs = ["Package.swift", "project.yml", "project.yaml", "Project.swift"]
            if specs.contains(where: { FileReader.kind(at: folder + "/" + $0) != nil }) { return nil }
            let up = (folder as NSString).deletingLastPathComponent
            if folder == root || up == folder || up.isEmpty { break }
            folder = up
        }
        // Without an Xcode project in the tree, the absence of references says nothing.
        guard !files.projects(near: bundle).isEmpty else { return nil }
        return
            "no Xcode project, CocoaPods spec, package manifest, project spec or code of the repository references it"
    }

    /// The shipped records of SwiftData schema sets: each set as it was at `--released` (every schema) and at
    /// `--against` (the schemas before that revision's newest), read from the Swift files under the same folder at
    /// that revision and matched by name. A set the revision did not have has no record. An app without versioned
    /// schemas evolves its one model in place: its model at the revision is put before today's, as the version that
    /// shipped, so every change rule compares the two.
    func swiftDataHistories(of sets: [SwiftSchemaSet], root: String) throws -> (
        [SwiftSchemaSet], [[ShippedHistory]]
    ) {
        var sets = sets
        var histories = [[ShippedHistory]](repeating: [], count: sets.count)
        // The lock file's record of a set, by the plan's file and the set's name.
        for (i, set) in sets.enumerated() where !set.isUnversioned {
            if let locked = history.lockHistory(key: swiftDataLockKey(set)) { histories[i].append(locked) }
        }
        let refs = [history.released.map { ($0, true) }, history.against.map { ($0, false) }].compactMap { $0 }
        guard !refs.isEmpty else { return (sets, histories) }
        let repository = try history.repositories.repository(containing: root)
        for (ref, released) in refs {
            let commit = try repository.resolve(ref)
            let then = try swiftDataSets(under: root, at: commit, in: repository) { path in
                ref + ":" + (PathTools.relative(path, to: repository.toplevel) ?? path)
            }
            for (i, set) in sets.enumerated() {
                guard let old = then.first(where: { $0.name == set.name && $0.plan == set.plan }) else { continue }
                if set.isUnversioned {
                    guard old.isUnversioned, var model = old.schemas.first, sets[i].schemas.count == 1,
                        // Unchanged since: nothing to compare.
                        VersionDigest(model: model.model).content
                            != VersionDigest(model: sets[i].schemas[0].model).content
                    else { continue }
                    model.name = ref
                    sets[i].schemas.insert(model, at: 0)
                    histories[i].append(
                        ShippedHistory(
                            source: released ? .released(ref) : .against(ref),
                            versions: HistoryOptions.versions(Array(sets[i].bundle.versions.prefix(1)))))
                    continue
                }
                let shipped = released ? old.bundle.versions : Array(old.bundle.versions.dropLast())
                histories[i].append(
                    ShippedHistory(
                        source: released ? .released(ref) : .against(ref), versions: HistoryOptions.versions(shipped)))
            }
        }
        return (sets, histories)
    }

    /// A set's key in the lock file: its plan's file relative to the lock file's folder, and its name.
    func swiftDataLockKey(_ set: SwiftSchemaSet) -> String {
        LockFile.swiftDataKey(
            planFile: PathTools.absolute(set.path, relativeTo: workingDirectory), set: set.name,
            lockDirectory: history.lockDirectory)
    }

    /// The SwiftData schema sets of the index (what is being committed), when a staged Swift file mentions SwiftData:
    /// the staged files are read first (most commits stop there), then every Swift file of the index.
    func stagedSwiftData(in repository: GitRepository) throws -> [SwiftSchemaSet] {
        let touched = try repository.indexFiles(stagedSwiftFiles, limit: SwiftDataLoader.sizeLimit)
        guard touched.contains(where: { SwiftDataReader.mentionsSwiftData([UInt8]($0.data)) }) else { return [] }
        let files = try repository.indexFiles(nil, limit: SwiftDataLoader.sizeLimit) { $0.hasSuffix(".swift") }
        return SwiftDataLoader.sets(of: files.map { ($0.path, [UInt8]($0.data)) }, root: repository.toplevel) {
            PathTools.display($0, relativeTo: workingDirectory)
        }
    }

    /// The SwiftData schema sets of the Swift files under `root` as they are at `commit`, each file shown as `display`
    /// says.
    package func swiftDataSets(
        under root: String, at commit: String, in repository: GitRepository, display: (String) -> String
    ) throws -> [SwiftSchemaSet] {
        let files = try repository.swiftFiles(under: root, commit: commit, limit: SwiftDataLoader.sizeLimit)
        return SwiftDataLoader.sets(of: files.map { ($0.path, [UInt8]($0.data)) }, root: root, display: display)
    }

    /// What the run's Swift files hold, each file read once on every core: references to the model in the
    /// files of the bundles' trees (files over `SourceReference.sizeLimit` not scanned), and the SwiftData
    /// declarations of the files in the folders searched (only files that mention SwiftData are parsed).
    struct SwiftFiles {
        var references: [SourceReference] = []
        /// Files committed as symlinks to files outside their tree: not read, named once.
        var outside: [String] = []
        var parsed: [String: SwiftSourceFile] = [:]
        var tooLarge: [String] = []
    }

    func readSwiftFiles(
        near selections: [BundleFinder.Selection], searched: [(root: String, files: [String])], files: RepositoryFiles
    ) -> SwiftFiles {
        var result = SwiftFiles()
        // A file read in an earlier run, unchanged since, is not read again (unless SwiftData's reader needs its
        // text). The cache is loaded while the files are looked at.
        let tree = Set(selections.map { files.root(near: $0.absolutePath) } + searched.map(\.root)).sorted()
            .joined(separator: "\n")
        let knownReady = Pending { [cache] in
            SourceReferenceCache(cache: cache, tree: tree, mentionWords: SwiftDataReader.mentionWords)
        }
        var nearBundles = Set<String>()
        var candidates: [(file: String, root: String)] = []
        for selection in selections {
            let root = files.root(near: selection.absolutePath)
            for file in files.codeFiles(near: selection.absolutePath) where nearBundles.insert(file).inserted {
                candidates.append((file, root))
            }
        }
        // A pre-commit run judges what the index holds: when no code file it lists changed since a run stored what
        // they say, that is read back whole, with no file looked at (20,000 files are 20,000 `lstat`s and as many
        // cache records).
        let judgesIndex = searched.isEmpty && files.index != nil
        let indexed = judgesIndex && cache.folder != nil ? indexedCodeKey(candidates.map(\.file), files: files) : nil
        if let indexed, let kept = cache.value(forKey: indexed, kind: Self.indexedCodeKind).flatMap(Self.swiftFiles) {
            return kept
        }
        // `lstat` on every core (hundreds of files in an app). A regular file's is its identity: no second `stat`
        // for the cache.
        let near = candidates.map(\.file)
        let statuses = concurrentMap(stride(from: 0, to: near.count, by: 64).map { $0..<min($0 + 64, near.count) }) {
            $0.map { index -> (isLink: Bool, identity: [Double]?)? in
                InputLog.consulted(near[index])
                return FileReader.linkStatus(near[index]).map {
                    (FileReader.isSymbolicLink($0), ResultCache.identity($0))
                }
            }
        }.flatMap { $0 }
        var order: [String] = []
        var identities: [[Double]?] = []
        for ((file, root), status) in zip(candidates, statuses) {
            if let status, status.isLink, (try? FileReader.requireInside(file, root: root)) == nil {
                result.outside.append(PathTools.display(file, relativeTo: workingDirectory))
                nearBundles.remove(file)
                continue
            }
            order.append(file)
            identities.append(status?.identity)
        }
        let inSearch = Set(searched.flatMap(\.files))
        order += searched.flatMap(\.files).filter { !nearBundles.contains($0) }
        identities += repeatElement(nil, count: order.count - identities.count)
        struct Reading: Sendable {
            var references: [SourceReference] = []
            var parsed: SwiftSourceFile?
            var tooLarge = false
            /// What the scan found, to keep for the next run (nil: taken from the cache, or not scanned).
            var scanned: SourceReferenceCache.Entry?
            var fromCache = false
        }
        let workingDirectory = workingDirectory
        let scanned = nearBundles
        let known = knownReady.value
        let caching = cache.folder != nil
        // In chunks: a lock per file would cost more than most files' reading.
        let chunks = stride(from: 0, to: order.count, by: 64).map { $0..<min($0 + 64, order.count) }
        let (paths, knownIdentities) = (order, identities)
        let readings = concurrentMap(chunks) { chunk in
            chunk.map { index -> Reading in
                let file = paths[index]
                var reading = Reading()
                // Most files hold nothing: their displayed path is never made.
                let display = { PathTools.display(file, relativeTo: workingDirectory) }
                func located(_ references: [SourceReference]) -> [SourceReference] {
                    guard !references.isEmpty else { return [] }
                    let shown = display()
                    return references.map {
                        var r = $0
                        r.location.file = shown
                        return r
                    }
                }
                let identity = caching ? knownIdentities[index] ?? ResultCache.identity(of: file) : nil
                if let identity, let entry = known.entry(of: file, identity: identity),
                    !(inSearch.contains(file) && entry.mentionsSwiftData)
                {
                    if scanned.contains(file) { reading.references = located(entry.references) }
                    reading.scanned = entry
                    reading.fromCache = true
                    return reading
                }
                switch SwiftDataLoader.read(file) {
                case .bytes(let bytes):
                    let keep = identity.map(ResultCache.isSettled) ?? false
                    if scanned.contains(file) || keep {
                        let found =
                            bytes.count <= SourceReference.sizeLimit ? SourceReference.scan(bytes: bytes, path: "") : []
                        if let identity, keep {
                            reading.scanned = SourceReferenceCache.Entry(
                                identity: identity, references: found,
                                mentionsSwiftData: SwiftDataReader.mentionsSwiftData(bytes))
                        }
                        if scanned.contains(file) { reading.references = located(found) }
                    }
                    if inSearch.contains(file) {
                        reading.parsed = SwiftDataLoader.parse(bytes, file: file, display: display)
                    }
                case .tooLarge:
                    reading.tooLarge = inSearch.contains(file)
                case .unreadable:
                    break
                }
                return reading
            }
        }.flatMap { $0 }
        if caching {
            var entries: [String: SourceReferenceCache.Entry] = [:]
            for (file, reading) in zip(order, readings) { entries[file] = reading.scanned }
            // Rewritten when a file was read, or the tree lost one.
            if readings.contains(where: { $0.scanned != nil && !$0.fromCache }) || entries.count != known.entries.count
            {
                known.store(entries)
            }
        }
        // A pre-commit run's code is the index's: a code file changed in the work tree and not staged is read as
        // staged (`stagedCode`).
        let staged = judgesIndex ? stagedCode(of: order.filter(scanned.contains), files: files) : nil
        for (file, reading) in zip(order, readings) {
            if let staged, let references = staged[file] {
                result.references += references
                continue
            }
            result.references += reading.references
            if let parsed = reading.parsed { result.parsed[file] = parsed }
            if reading.tooLarge { result.tooLarge.append(PathTools.display(file, relativeTo: workingDirectory)) }
        }
        if let indexed, staged != nil {
            cache.store(Self.cached(result), forKey: indexed, kind: Self.indexedCodeKind)
        }
        return result
    }

    static let indexedCodeKind = "indexed-code"

    /// What a pre-commit run's code files are, as the index records them: the scan's revision, the folder reports
    /// are relative to, and each file's path and index record, digested. nil outside a pre-commit run, or when a
    /// file is not in the index or is a symlink (whose target the work tree decides).
    func indexedCodeKey(_ codeFiles: [String], files: RepositoryFiles) -> String? {
        guard files.index != nil, !codeFiles.isEmpty else { return nil }
        var hasher = SHA256()
        hasher.update(Array("scan \(SourceReference.scanRevision)\u{0}\(workingDirectory)\u{0}".utf8))
        for file in codeFiles {
            guard let record = files.indexRecord(of: file), !record.hasPrefix("120000") else { return nil }
            hasher.update(Array("\(file)\u{9}\(record)\n".utf8))
        }
        return Hex.encode(hasher.finalize())
    }

    /// The references of each code file whose work-tree bytes may not be what the index holds, scanned from its
    /// staged blob: a file the index's recorded status does not describe (`GitIndex.Entry.describes`: size, times
    /// to the nanosecond, inode, owner, mode, recorded before the index was written; no filter or other program of
    /// the repository's runs), read with one `cat-file`. nil when the index cannot be read: then what the work tree
    /// says is used, and not kept as the index's.
    func stagedCode(of codeFiles: [String], files: RepositoryFiles) -> [String: [SourceReference]]? {
        // The object id's length as the index listing wrote it (SHA-1 or SHA-256).
        guard let toplevel = files.index?.toplevel, let first = codeFiles.first,
            let blobID = files.indexRecord(of: first)?.split(separator: " ").dropFirst().first,
            let repository = try? history.repositories.repository(containing: toplevel),
            let (index, indexModified) = GitIndex.read(
                gitDirectory: repository.gitDirectory, under: "", hashLength: blobID.utf8.count / 2)
        else { return codeFiles.isEmpty ? [:] : nil }
        var differing: [String] = []
        var blobs: [String] = []
        for file in codeFiles {
            guard let relative = PathTools.relative(file, to: toplevel), let entry = index.entries[ExactName(relative)]
            else { return nil }
            if let (info, modified, changed) = FileReader.status(file),
                entry.describes(info, modified: modified, changed: changed, indexModified: indexModified)
            {
                continue
            }
            differing.append(file)
            blobs.append(entry.blobID)
        }
        guard !differing.isEmpty else { return [:] }
        // Each blob read up to the scan's size limit (a larger one is not scanned, as on disk).
        guard blobs.count == differing.count,
            let contents = try? repository.catFiles(blobs, limitEach: SourceReference.sizeLimit)
        else { return nil }
        var staged: [String: [SourceReference]] = [:]
        for (file, (size, data)) in zip(differing, contents) {
            let shown = PathTools.display(file, relativeTo: workingDirectory)
            let found =
                size <= SourceReference.sizeLimit && data.count == size
                ? SourceReference.scan(bytes: Array(data), path: "") : []
            staged[file] = found.map {
                var reference = $0
                reference.location.file = shown
                return reference
            }
        }
        return staged
    }

    /// The code's facts as the cache keeps them: references grouped by file (as reports name it), and the files
    /// committed as links outside the tree.
    static func cached(_ files: SwiftFiles) -> JSONValue {
        var groups: [(String, [JSONValue])] = []
        for reference in files.references {
            if groups.last?.0 == reference.location.file {
                groups[groups.count - 1].1.append(reference.cached)
            } else {
                groups.append((reference.location.file, [reference.cached]))
            }
        }
        return .object([
            ("references", .array(groups.map { .array([.string($0.0), .array($0.1)]) })),
            ("outside", .array(files.outside.map(JSONValue.string))),
            ("tooLarge", .array(files.tooLarge.map(JSONValue.string))),
        ])
    }

    /// Read back from `cached`; nil when the entry is not as written.
    static func swiftFiles(_ value: JSONValue) -> SwiftFiles? {
        guard let groups = value["references"]?.arrayValue, let outside = value["outside"]?.arrayValue,
            let tooLarge = value["tooLarge"]?.arrayValue
        else { return nil }
        var files = SwiftFiles()
        for group in groups {
            guard let pair = group.arrayValue, pair.count == 2, let file = pair[0].stringValue,
                let items = pair[1].arrayValue
            else { return nil }
            for item in items {
                guard var reference = SourceReference(cached: item) else { return nil }
                reference.location.file = file
                files.references.append(reference)
            }
        }
        files.outside = outside.compactMap(\.stringValue)
        files.tooLarge = tooLarge.compactMap(\.stringValue)
        guard files.outside.count == outside.count, files.tooLarge.count == tooLarge.count else { return nil }
        return files
    }

    /// The Xcode projects' view of a bundle: the configured projects, else every `project.pbxproj` in its tree
    /// (listed once per run with the mapping models). A project that cannot be read says nothing. `read` holds the
    /// projects already read in this run, by file.
    func projects(
        referencing absolutePath: String, files: RepositoryFiles, read: ProjectsRead
    ) -> [(project: XcodeProject, bundlePath: String)] {
        let pbxprojs =
            configuration.projects.map { $0.map { $0 + "/project.pbxproj" } } ?? files.projects(near: absolutePath)
        return pbxprojs.compactMap { file in
            let projectFolder = ((file as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
            guard let relative = PathTools.relative(absolutePath, to: projectFolder) else { return nil }
            let project = read.project(at: file) {
                let inside =
                    configuration.projects != nil
                    || (try? FileReader.requireInside(file, root: files.root(near: absolutePath))) != nil
                return inside
                    ? try? XcodeProject.read(
                        path: file, displayPath: PathTools.display(file, relativeTo: workingDirectory), cache: cache)
                    : nil
            }
            return project.map { ($0, relative) }
        }
    }

    /// The project files a run has read, by path (nil: unreadable, or outside the tree).
    final class ProjectsRead: Sendable {
        private let read = Locked([String: XcodeProject?]())

        func project(at file: String, reading: () -> XcodeProject?) -> XcodeProject? {
            if let known = read.withLock({ $0[file] }) { return known }
            let project = reading()
            read.withLock { $0[file] = .some(project) }
            return project
        }
    }

    /// The store fixtures `goldenStores` names, under the configuration's folder, in path order.
    func goldenStores() throws -> [LintInput.GoldenStore] {
        guard !configuration.goldenStores.isEmpty else { return [] }
        let base = configuration.baseDirectory
        var files: [String] = []
        DirectoryWalker().walk(
            base,
            file: { path, _ in
                let relative = PathTools.relative(path, to: base) ?? path
                if configuration.goldenStores.contains(where: { Glob.matches(pattern: $0, path: relative) }) {
                    files.append(path)
                }
            },
            visit: { _, name in name != ".git" && name != ".build" }
        )
        return try files.sorted().map { file in
            do {
                return LintInput.GoldenStore(
                    path: PathTools.display(file, relativeTo: workingDirectory),
                    metadata: try StoreMetadata.read(path: file))
            } catch {
                throw UnreadableStore(
                    description:
                        "golden store \(PathTools.display(file, relativeTo: workingDirectory)) cannot be read: \(error)"
                )
            }
        }
    }
}
