import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintHistory

extension Workspace {
    /// What the change does to the settings each bundle (absolute paths) answers to, against `gateRevision`: the
    /// configuration and lock file in force now against the ones nearest the bundle at the revision, and the
    /// baseline against the same file there. Files at the revision are listed once per repository and read once.
    func configurationChanges(bundles: [String]) throws -> (changes: [ConfigurationChange], levels: [String: String]) {
        guard let revision = gateRevision, !bundles.isEmpty else { return ([], [:]) }
        var changes: [ConfigurationChange] = []
        var levels: [String: String] = [:]
        var seen = Set<String>()
        let defaults = Dictionary(
            RuleRegistry.all.map { ($0.id, $0.description.severity) }, uniquingKeysWith: { a, _ in a })
        // Per repository: the revision's files, and what the work tree holds now (the same for every bundle).
        var floors: [String: RepositoryFloor] = [:]
        for bundle in bundles {
            let repository = try history.repositories.repository(containing: bundle)
            guard let relative = PathTools.relative(bundle, to: repository.toplevel) else { continue }
            if floors[repository.toplevel] == nil {
                floors[repository.toplevel] = try repositoryFloor(repository, revision: revision)
            }
            let floor = floors[repository.toplevel]!
            let then = floor.atRevision
            var before = ConfigurationFloor.Side(
                configuration: try then.nearest(Configuration.fileName, to: relative, display: display),
                lock: try then.nearest(LockFile.fileName, to: relative, display: display))
            before.baseline = floor.baselineBefore
            before.overridesAllowed = floor.overridesAllowed
            let after = floor.now
            for (id, level) in before.configuration?.json["rules"]?.objectValue ?? [] {
                if let text = level.stringValue { levels[id] = text }
            }
            for change in ConfigurationFloor.changes(
                bundle: relative, before: before, after: after, revision: revision, defaults: defaults)
            where seen.insert([change.file, change.key, change.description].joined(separator: "\u{1F}")).inserted {
                changes.append(change)
            }
        }
        return (changes, levels)
    }

    func display(_ absolute: String) -> String { PathTools.display(absolute, relativeTo: workingDirectory) }

    /// What one repository contributes whatever the bundle: the revision's files, the settings in force now, the
    /// baseline at the revision, and whether the revision's root configuration allows overrides.
    struct RepositoryFloor {
        var atRevision: RevisionSettings
        var now: ConfigurationFloor.Side
        var baselineBefore: (display: String, entries: Set<String>)?
        var overridesAllowed: Bool
    }

    private func repositoryFloor(_ repository: GitRepository, revision: String) throws -> RepositoryFloor {
        let then = try RevisionSettings(repository, revision: revision)
        var now = ConfigurationFloor.Side(
            configuration: try onDisk(configuration.filePath, in: repository),
            lock: history.lock == nil ? nil : try onDisk(history.lockPath, in: repository))
        var baselineBefore: (display: String, entries: Set<String>)?
        if let baselineFile, let bytes = try? FileReader.read(baselineFile, limit: FileReader.Limit.dataFile) {
            now.baseline = (display(baselineFile), Self.baselineEntries(bytes))
            if let path = PathTools.relative(baselineFile, to: repository.toplevel),
                let old = try repository.fileBytes(path, at: then.commit, limit: FileReader.Limit.dataFile)
            {
                baselineBefore = (display(baselineFile), Self.baselineEntries(old))
            }
        }
        // The team's word is the root configuration's at the revision (or the one governing the bundle there).
        let root = try then.nearest(Configuration.fileName, to: Configuration.fileName, display: display)
        return RepositoryFloor(
            atRevision: then, now: now, baselineBefore: baselineBefore,
            overridesAllowed: root?.json["allowNestedOverrides"]?.boolValue == true)
    }

    /// A settings file of the work tree (a path as the run names it), with its folder relative to the top.
    private func onDisk(_ path: String?, in repository: GitRepository) throws -> ConfigurationFloor.SettingsFile? {
        guard let path else { return nil }
        let absolute = PathTools.standardize(PathTools.absolute(path, relativeTo: workingDirectory))
        guard let bytes = try? FileReader.read(absolute, limit: FileReader.Limit.dataFile) else { return nil }
        let folder = PathTools.relative((absolute as NSString).deletingLastPathComponent, to: repository.toplevel) ?? ""
        return try? ConfigurationFloor.SettingsFile(display: display(absolute), folder: folder, bytes: bytes)
    }

    /// A baseline's entries, each as written (compact JSON): what a change adds is what it newly hides.
    static func baselineEntries(_ bytes: Data) -> Set<String> {
        guard let json = try? JSONValue.parse(bytes, json5: false) else { return [] }
        return Set((json["findings"]?.arrayValue ?? []).map { $0.serialized(indent: nil) })
    }

    /// The configuration and lock files a revision holds: listed by one `git ls-tree`, each read once, when first
    /// asked (every bundle under one configuration asks for the same file).
    final class RevisionSettings {
        let repository: GitRepository
        let commit: String
        let paths: Set<String>
        private var read: [String: Data?] = [:]

        init(_ repository: GitRepository, revision: String) throws {
            self.repository = repository
            commit = try repository.resolve(revision)
            let listing = repository.run(["ls-tree", "-r", "-z", "--full-tree", "--name-only", commit])
            guard listing.status == 0 else {
                throw GitRepository.GitError(message: "git ls-tree failed at \(revision): \(listing.error)")
            }
            var paths = Set<String>()
            GitRepository.forEachRecord(listing.output) { record in
                let path = String(decoding: record, as: UTF8.self)
                let name = path.split(separator: "/").last.map(String.init) ?? path
                if name == Configuration.fileName || name == LockFile.fileName { paths.insert(path) }
            }
            self.paths = paths
        }

        /// The file of this name nearest the bundle (relative to the top), at the revision.
        func nearest(_ name: String, to bundle: String, display: (String) -> String) throws
            -> ConfigurationFloor.SettingsFile?
        {
            var folder = (bundle as NSString).deletingLastPathComponent
            while true {
                let path = folder.isEmpty ? name : folder + "/" + name
                if paths.contains(path), let bytes = try bytes(at: path) {
                    // Unreadable at the revision: it set no floor there.
                    return try? ConfigurationFloor.SettingsFile(
                        display: display(repository.toplevel + "/" + path), folder: folder, bytes: bytes)
                }
                if folder.isEmpty { return nil }
                folder = (folder as NSString).deletingLastPathComponent
            }
        }

        private func bytes(at path: String) throws -> Data? {
            if let known = read[path] { return known }
            let bytes = try repository.fileBytes(path, at: commit, limit: FileReader.Limit.dataFile)
            read[path] = bytes
            return bytes
        }
    }
}
