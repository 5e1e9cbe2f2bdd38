import Foundation
import ModelLintSupport
import ModelLintModel

/// The files beside the bundles that a run reads: mapping models now (Xcode compiles them from any folder of
/// the project). Each tree is listed once per run, however many bundles it holds: in a git work tree, the files
/// git lists (`ls-files --cached --others --exclude-standard`, one call per repository); elsewhere, one walk
/// from the nearest folder that holds a project (`.xcodeproj`, `Package.swift`, `project.yml`, `Project.swift`),
/// else from the bundle's folder.
package final class RepositoryFiles: Sendable {
    package let walker: DirectoryWalker
    package let repositories: RepositoryCache
    /// Absolute paths excluded by the configuration.
    package let isExcluded: @Sendable (String) -> Bool
    private let listings = Locked([String: [String]]())
    private let listingInProgress = Locked(())
    private let mappingFiles = Locked([String: MappingModelFile]())
    /// The mapping models' embedded models read so far: each decoded once however many files embed it.
    private let embeddedModels = EmbeddedModelMemo()
    /// Outside git: each bundle folder's project root, found once (it lists every folder above).
    private let projectRoots = Locked([String: String]())

    /// Whether a file is one a run reads: a mapping model's XML, an Xcode project, code, a CocoaPods spec.
    package static func isWanted(_ relativePath: String) -> Bool {
        wantedSuffixes.contains { relativePath.hasSuffix($0) }
    }

    private static let wantedSuffixes = [
        ".xcmappingmodel/xcmapping.xml", ".xcodeproj/project.pbxproj", ".swift", ".m", ".mm", ".podspec",
        ".podspec.json",
    ]
    private static let wantedSuffixBytes = wantedSuffixes.map { Array($0.utf8) }

    /// Whether a path's UTF-8 bytes end as a wanted file's do: true for every path `isWanted` is true for (the
    /// suffixes are ASCII that no other character is equal to), and for few others.
    package static func isWanted(_ relativePath: ArraySlice<UInt8>) -> Bool {
        wantedSuffixBytes.contains { suffix in
            relativePath.count >= suffix.count && relativePath.suffix(suffix.count).elementsEqual(suffix)
        }
    }

    /// A path git lists (relative to the top), when it is a wanted file outside the folders a walk skips. Most of a
    /// repository's files are not wanted: their paths are tested as bytes and never made. The bytes end as a wanted
    /// path's characters do whenever the characters do; for an ASCII path they decide alone (ASCII characters are
    /// equal only to themselves), and for any other the characters decide.
    package static func listed(_ path: ArraySlice<UInt8>) -> String? {
        guard isWanted(path) else { return nil }
        if path.allSatisfy({ $0 < 0x80 }) {
            let folders = path.split(separator: 0x2F).dropLast()
            let skipped = folders.contains { folder in
                skippedFolderBytes.contains { $0.elementsEqual(folder) } || isModelFolder(folder)
            }
            guard !skipped else { return nil }
            return String(decoding: path, as: UTF8.self)
        }
        let text = String(decoding: path, as: UTF8.self)
        guard isWanted(text),
            !text.split(separator: "/").dropLast().contains(where: {
                DirectoryWalker.skippedFolders.contains(String($0)) || isModelFolder(Array($0.utf8)[...])
            })
        else { return nil }
        return text
    }

    private static let skippedFolderBytes = DirectoryWalker.skippedFolders.map { Array($0.utf8) }
    private static let modelFolderSuffixes = [".xcdatamodeld", ".xcdatamodel"].map { Array($0.utf8) }

    /// Whether a folder is a model bundle or version (`.xcdatamodeld`, `.xcdatamodel`): Xcode compiles each as one
    /// file, so nothing inside one is a mapping model, project or source file of the app, and no listing holds it.
    package static func isModelFolder(_ name: ArraySlice<UInt8>) -> Bool {
        // The last byte first: most folders are neither.
        guard name.last == UInt8(ascii: "d") || name.last == UInt8(ascii: "l") else { return false }
        return modelFolderSuffixes.contains { name.count > $0.count && name.suffix($0.count).elementsEqual($0) }
    }

    /// The code files in the tree a bundle is in: Swift (the app's code, a Tuist `Project.swift`) and
    /// Objective-C (`.m`, `.mm`), whose loading and migrating code is read alike.
    package func codeFiles(near bundle: String) -> [String] {
        files(near: bundle).filter { $0.hasSuffix(".swift") || $0.hasSuffix(".m") || $0.hasSuffix(".mm") }
    }

    /// The Xcode projects (`project.pbxproj`) in the tree a bundle is in.
    package func projects(near bundle: String) -> [String] {
        files(near: bundle).filter { $0.hasSuffix(".xcodeproj/project.pbxproj") }
    }

    /// In a pre-commit run: each listed file's index record (`<mode> <blob id> <stage>`), by absolute path.
    private let indexRecords = Locked([String: String]())

    /// A listed file's record in the index a pre-commit run reads (nil outside one): what the commit holds of it.
    package func indexRecord(of file: String) -> String? {
        indexRecords.withLock { $0[file] }
    }

    /// The CocoaPods specs (`*.podspec`, `*.podspec.json`) in the tree a bundle is in.
    package func podspecs(near bundle: String) -> [String] {
        files(near: bundle).filter { $0.hasSuffix(".podspec") || $0.hasSuffix(".podspec.json") }
    }

    /// A pre-commit run's index (`git ls-files --stage -z` of the repository at `toplevel`): the files the commit
    /// holds are listed from it, not from the work tree.
    package let index: (toplevel: String, entries: Data)?
    /// Where a mapping model's hashes are kept while its file is unchanged: its embedded models are megabytes of
    /// archived objects, decoded in tens of milliseconds.
    package let cache: ResultCache

    package init(
        walker: DirectoryWalker = DirectoryWalker(), repositories: RepositoryCache = RepositoryCache(),
        isExcluded: @escaping @Sendable (String) -> Bool = { _ in false },
        index: (toplevel: String, entries: Data)? = nil, cache: ResultCache = ResultCache(folder: nil)
    ) {
        self.walker = walker
        self.repositories = repositories
        self.isExcluded = isExcluded
        self.index = index
        self.cache = cache
    }

    /// The tree a bundle's neighbours are searched in: its repository's top folder, else its project's root.
    package func root(near bundle: String) -> String {
        let parent = (bundle as NSString).deletingLastPathComponent
        if let repository = try? repositories.repository(containing: parent) { return repository.toplevel }
        return projectRoot(of: parent)
    }

    private func projectRoot(of folder: String) -> String {
        if let known = projectRoots.withLock({ $0[folder] }) { return known }
        let root = Self.projectRoot(above: folder) ?? folder
        projectRoots.withLock { $0[folder] = root }
        return root
    }

    /// The tree a bundle's neighbours are searched in, and the wanted files in it (absolute paths).
    package func files(near bundle: String) -> [String] {
        let parent = (bundle as NSString).deletingLastPathComponent
        if let repository = try? repositories.repository(containing: parent) {
            return listing(of: repository.toplevel) { self.gitListing(repository) }
        }
        let root = projectRoot(of: parent)
        return listing(of: root) { self.walkListing(root) }
    }

    private func listing(of root: String, _ make: () -> [String]) -> [String] {
        // Made under a lock of its own: two threads asking for one tree list it once.
        listingInProgress.withLock { _ in
            if let known = listings.withLock({ $0[root] }) { return known }
            let made = make().filter { !isExcluded($0) }
            listings.withLock { $0[root] = made }
            return made
        }
    }

    private func gitListing(_ repository: GitRepository) -> [String] {
        var found: [String] = []
        func consider(_ path: ArraySlice<UInt8>) {
            if let kept = Self.listed(path) { found.append(repository.toplevel + "/" + kept) }
        }
        if let index, index.toplevel == repository.toplevel {
            // "<mode> <sha> <stage>\t<path>"
            var records: [String: String] = [:]
            GitRepository.forEachRecord(index.entries) { record in
                guard let tab = record.firstIndex(of: 0x09) else { return }
                let before = found.count
                consider(record[(tab + 1)...])
                if found.count > before { records[found[before]] = String(decoding: record[..<tab], as: UTF8.self) }
            }
            indexRecords.withLock { $0.merge(records) { a, _ in a } }
        } else {
            let result = repository.run(["ls-files", "--cached", "--others", "--exclude-standard", "-z"])
            guard result.status == 0 else { return walkListing(repository.toplevel) }
            GitRepository.forEachRecord(result.output) { consider($0) }
        }
        return found
    }

    private func walkListing(_ root: String) -> [String] {
        var found: [String] = []
        walker.walk(
            root, skip: isExcluded,
            file: { path, _ in
                if Self.isWanted(path) { found.append(path) }
            }, visit: { _, name in !Self.isModelFolder(Array(name.utf8)[...]) })
        return found
    }

    /// Wanted files under a configured folder (`mappingModels`), walked once.
    package func files(under folder: String) -> [String] {
        listing(of: "dir:" + folder) { walkListing(folder) }
    }

    private static let projectSuffix = Array(".xcodeproj".utf8)
    private static let projectFiles = ["Package.swift", "project.yml", "Project.swift"].map { Array($0.utf8) }

    /// The nearest folder at or above `directory` that holds an Xcode project, a Swift package or a project spec.
    package static func projectRoot(above directory: String) -> String? {
        var current = directory
        while true {
            if DirectoryListing.hasEntry(
                in: current,
                { name in
                    // The last byte first: most names in a big folder are neither.
                    switch name.last {
                    case UInt8(ascii: "j"):
                        return name.count >= projectSuffix.count
                            && name.suffix(projectSuffix.count).elementsEqual(projectSuffix)
                    case UInt8(ascii: "t"), UInt8(ascii: "l"): return projectFiles.contains { name.elementsEqual($0) }
                    default: return false
                    }
                })
            {
                return current
            }
            let up = (current as NSString).deletingLastPathComponent
            if up == current || up.isEmpty { return nil }
            current = up
        }
    }

    /// A mapping model's paths and embedded models' hashes, read once per run however many bundles ask (and
    /// from the result cache while the file is unchanged).
    /// `shared`: whether other mapping models of the run may embed its models (then each is read once, by its text's
    /// digest; a run with one mapping model does not digest megabytes for nothing).
    package func mappingModelFile(_ xml: String, shared: Bool = true) -> MappingModelFile {
        if let known = mappingFiles.withLock({ $0[xml] }) { return known }
        let kind = "mapping-model"
        var read: MappingModelFile
        if let kept = cache.value(for: xml, kind: kind).flatMap(MappingModelFile.init(cached:)) {
            read = kept
        } else {
            read = MappingModelReader.file(at: xml, displayPath: xml, memo: shared ? embeddedModels : nil)
            cache.store(read.cached, for: xml, kind: kind)
        }
        // Matching reads the hashes alone: the models are not kept for the rest of the run.
        read.source = nil
        read.destination = nil
        mappingFiles.withLock { $0[xml] = read }
        return read
    }

    /// The mapping models' files of every bundle in `bundles`, read ahead (on another core while the bundles
    /// are): `mappingModels(for:…)` then finds them read.
    package func readMappingModels(near bundles: [String], configuredFolders: [String]) {
        var seen: Set<String> = []
        let files = bundles.flatMap { mappingModelFiles(near: $0, configuredFolders: configuredFolders) }.filter {
            seen.insert($0).inserted
        }
        // On every core: a bundle with a mapping model per step has a dozen, each a few hundred kilobytes to decode.
        _ = concurrentMap(files) { mappingModelFile($0, shared: files.count > 1) }
    }

    /// The `xcmapping.xml` files near a bundle and in the configured folders, sorted; not one that resolves
    /// outside the tree (a committed symlink), which is never read. Outside a pre-commit run the work tree is what
    /// builds: a mapping model git still lists but that was deleted from the work tree maps nothing.
    private func mappingModelFiles(near bundle: String, configuredFolders: [String]) -> [String] {
        var seen: Set<String> = []
        let root = self.root(near: bundle)
        return (files(near: bundle) + configuredFolders.flatMap { files(under: $0) })
            .filter { $0.hasSuffix("/xcmapping.xml") && seen.insert($0).inserted }
            .filter { xml in
                configuredFolders.contains { PathTools.relative(xml, to: $0) != nil }
                    || (try? FileReader.requireInside(xml, root: root)) != nil
            }
            .filter { index != nil || FileReader.kind(at: $0) != nil }
            .sorted()
    }

    /// The mapping models that may map versions of this bundle: found near it, and in the configured folders;
    /// not those whose paths name another bundle. `display` names a path as reports do.
    package func mappingModels(for bundle: String, configuredFolders: [String], display: (String) -> String)
        -> [MappingModelSource]
    {
        let bundleName = (bundle as NSString).lastPathComponent
        return mappingModelFiles(near: bundle, configuredFolders: configuredFolders).compactMap { xml in
            let folder = (xml as NSString).deletingLastPathComponent
            let file = mappingModelFile(xml)
            // A mapping model whose model paths name another bundle maps that bundle's versions, even when the
            // version names look alike (`Library1ToLibrary2` is no mapping for `Store 1` -> `Store 2`). The folders
            // above the bundle are often stale (projects move); the bundle's own name is what Xcode matched.
            let namesAnother = [file.sourcePath, file.destinationPath].compactMap { $0 }.contains { path in
                let parts = path.split(separator: "/")
                guard parts.count >= 2 else { return false }
                let named = String(parts[parts.count - 2])
                return named.hasSuffix(".xcdatamodeld") && !named.isExactly(bundleName)
            }
            guard !namesAnother else { return nil }
            let name = ((folder as NSString).lastPathComponent as NSString).deletingPathExtension
            return MappingModelSource(name: name, path: display(xml), file: file)
        }
    }

    /// The mapping models around a bundle (`mappingModels(for:…)`), matched by what they embed against its
    /// versions: the files, the pairs they map, and those that claim the bundle but match nothing.
    package func matchedMappingModels(
        for bundle: String, versions: [VersionRef], configuredFolders: [String], display: (String) -> String
    ) -> (sources: [MappingModelSource], maps: [MappingModel], unmatched: [UnmatchedMappingModel]) {
        let sources = mappingModels(for: bundle, configuredFolders: configuredFolders, display: display)
        let (maps, unmatched) = MappingModelReader.match(sources, versions: versions)
        return (sources, maps, unmatched)
    }
}

extension ModelBundle {
    /// The bundle in the order `check` decides from the evidence: the pairs its mapping models map, the current
    /// version's stem, and (in git) when each version was first added.
    package func orderedByEvidence(
        _ mappingModels: [MappingModel], bundleAt absolutePath: String, repositories: RepositoryCache
    )
        -> ModelBundle
    {
        let folder = (absolutePath as NSString).deletingLastPathComponent
        return orderedByEvidence(mappingPairs: mappingModels.map { ($0.source, $0.destination) }) {
            (try? repositories.repository(containing: folder))?.versionHistory(bundleAt: absolutePath)
        }
    }
}
