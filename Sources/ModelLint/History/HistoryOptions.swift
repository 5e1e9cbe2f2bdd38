import Foundation
import ModelLintSupport
import ModelLintModel

/// The shipped-version records a `check` compares with: a lock file, `--against REF`, `--released REF`.
package struct HistoryOptions: Sendable {
    package var lock: LockFile?
    /// The lock file's path, as displayed, and the folder its bundle paths are relative to.
    package var lockPath: String = LockFile.fileName
    package var lockDirectory: String = "/"
    package var against: String?
    package var released: String?

    /// Repositories discovered this run, by the folder they were asked about (see `repository(for:)`).
    package let repositories: RepositoryCache

    package init() { repositories = RepositoryCache() }

    /// With the run's repositories already discovered (a split run's parts share them).
    package init(repositories: RepositoryCache) { self.repositories = repositories }

    /// The repository for a bundle: the one holding the working directory when the bundle is in it (discovered
    /// once per run), else the one holding the bundle.
    package func repository(forBundleAt absolutePath: String, workingDirectory: String) throws -> GitRepository {
        if let shared = try? repositories.repository(containing: workingDirectory),
            PathTools.relative(absolutePath, to: shared.toplevel) != nil
        {
            return shared
        }
        return try repositories.repository(containing: (absolutePath as NSString).deletingLastPathComponent)
    }

    /// What reading a bundle at a revision starts with: the commit the revision names, and the versions git says
    /// are byte for byte the work tree's there.
    package struct RevisionFacts: Sendable {
        var commit: String
        var identical: Set<ExactName>
    }

    /// Whether this run compares with a revision (`--released`, `--against`).
    package var comparesRevisions: Bool { against != nil || released != nil }

    /// The facts for each revision this run compares the bundle with, by revision as given. Three git processes
    /// per revision that need nothing of the work tree's read: asked beside it, they cost no time of their own.
    package func revisionFacts(forBundleAt absolutePath: String, workingDirectory: String) -> Result<
        [String: RevisionFacts], GitRepository.GitError
    > {
        Result {
            var facts: [String: RevisionFacts] = [:]
            let revisions = [released, against].compactMap { $0 }
            guard !revisions.isEmpty else { return facts }
            let repository = try repository(forBundleAt: absolutePath, workingDirectory: workingDirectory)
            for revision in revisions where facts[revision] == nil {
                let commit = try repository.resolve(revision)
                facts[revision] = RevisionFacts(
                    commit: commit, identical: repository.versionsIdentical(bundleAt: absolutePath, since: commit))
            }
            return facts
        }.mapError { $0 as? GitRepository.GitError ?? GitRepository.GitError(message: "\($0)") }
    }

    /// Every record that applies to this bundle.
    /// `decidedOrder`: the work tree's order of the bundle's versions, which the bundle at a revision follows.
    /// `sourceCache`: the entities the work tree's read of the bundle built, which its versions at a revision
    /// mostly repeat. `workTree`: the work tree's read of the bundle, whose versions serve the revision's
    /// byte-identical ones and whose path the revision's bundle is shown at (`GitRepository.WorkTreeRead`).
    /// `digestCache`: where the locked versions found unchanged are remembered by file (`LockedVersionCheck`); nil
    /// when `workTree` was not read from its files.
    package func histories(
        forBundleAt absolutePath: String, decidedOrder: [String], workingDirectory: String,
        sourceCache: EntitySourceCache = EntitySourceCache(), workTree: ModelBundle? = nil,
        digestCache: ResultCache? = nil,
        revisionFacts known: Result<[String: RevisionFacts], GitRepository.GitError>? = nil
    ) throws -> [ShippedHistory] {
        var histories: [ShippedHistory] = []
        if var locked = lockHistory(
            key: LockFile.normalizedKey(PathTools.relative(absolutePath, to: lockDirectory) ?? absolutePath))
        {
            if let workTree {
                let unchanged = LockedVersionCheck.unchanged(
                    locked, workTree: workTree, absolutePath: absolutePath, cache: digestCache)
                for i in locked.versions.indices where unchanged.contains(ExactName(locked.versions[i].name)) {
                    locked.versions[i].identicalInWorkTree = true
                }
            }
            histories.append(locked)
        }
        guard comparesRevisions else { return histories }
        let repository = try repository(forBundleAt: absolutePath, workingDirectory: workingDirectory)
        let facts = try (known ?? revisionFacts(forBundleAt: absolutePath, workingDirectory: workingDirectory)).get()
        // The versions git says are unchanged since the revision: compared as unchanged, and read as the work
        // tree's models rather than fetched and parsed again.
        func reusable(_ identical: Set<ExactName>) -> GitRepository.WorkTreeRead? {
            guard let workTree else { return nil }
            var byName: [ExactName: ModelVersion] = [:]
            for version in workTree.versions where identical.contains(ExactName(version.name)) {
                byName[ExactName(version.name)] = version
            }
            return GitRepository.WorkTreeRead(displayPath: workTree.path, identical: byName)
        }
        if let released, let fact = facts[released] {
            if let atRef = try repository.bundle(
                atPathOrWhereMovedFrom: absolutePath, commit: fact.commit, label: released, following: decidedOrder,
                cache: sourceCache, workTree: reusable(fact.identical))
            {
                histories.append(
                    ShippedHistory(
                        source: .released(released), versions: Self.versions(atRef.versions, identical: fact.identical))
                )
            }
        }
        if let against, let fact = facts[against] {
            if let atRef = try repository.bundle(
                atPathOrWhereMovedFrom: absolutePath, commit: fact.commit, label: against, following: decidedOrder,
                cache: sourceCache, workTree: reusable(fact.identical)),
                let current = atRef.currentVersionIndex
            {
                // Only versions already superseded at REF count as shipped; REF's current one may still be unreleased work.
                histories.append(
                    ShippedHistory(
                        source: .against(against),
                        versions: Self.versions(Array(atRef.versions[..<current]), identical: fact.identical)))
            }
        }
        return histories
    }

    /// What the lock file records under this key (a bundle's, or a SwiftData schema set's), as shipped history.
    package func lockHistory(key: String) -> ShippedHistory? {
        guard let versions = lock?.bundles[ExactName(key)] else { return nil }
        return ShippedHistory(
            source: .lockFile(lockPath),
            versions: versions.keys.sorted { VersionOrder.precedes($0.string, $1.string) }.map {
                ShippedHistory.Version(name: $0.string, digest: versions[$0]!, model: nil)
            })
    }

    /// `identical`: the versions git says are byte for byte the work tree's.
    package static func versions(_ versions: [ModelVersion], identical: Set<ExactName> = []) -> [ShippedHistory.Version]
    {
        versions.compactMap { version in
            version.model.map {
                var shipped = ShippedHistory.Version(name: version.name, model: $0)
                shipped.identicalInWorkTree = identical.contains(ExactName(version.name))
                return shipped
            }
        }
    }
}

/// Git repositories found this run, each discovered once.
package final class RepositoryCache: Sendable {
    private let found = Locked([String: Result<GitRepository, GitRepository.GitError>]())

    package init() {}

    /// A repository already found whose work tree holds `directory` with nothing git would stop at in between (a
    /// `.git` of a nested repository, submodule or worktree; a bare repository's `HEAD`, `objects` and `refs`), so
    /// git would find the same one: no second `git rev-parse` for a bundle's folder inside a known repository.
    static func enclosing(_ directory: String, among known: [GitRepository]) -> GitRepository? {
        for repository in known {
            guard directory != repository.toplevel,
                let relative = PathTools.relative(directory, to: repository.toplevel), !relative.isEmpty,
                PathTools.relative(directory, to: repository.gitDirectory) == nil
            else { continue }
            var current = directory
            var clear = true
            while current != repository.toplevel {
                if GitRepository.hasRepositoryMarker(current) {
                    clear = false
                    break
                }
                current = (current as NSString).deletingLastPathComponent
            }
            if clear { return repository }
        }
        return nil
    }

    /// The repository holding `directory`, or why there is none.
    package func repository(containing directory: String) throws -> GitRepository {
        // Discovered under the lock: two threads asking about one folder run git once.
        try found.withLock { found in
            if let known = found[directory] { return try known.get() }
            if let enclosing = Self.enclosing(directory, among: found.values.compactMap { try? $0.get() }) {
                found[directory] = .success(enclosing)
                return enclosing
            }
            do {
                let repository = try GitRepository(containing: directory)
                found[directory] = .success(repository)
                return repository
            } catch let error as GitRepository.GitError {
                found[directory] = .failure(error)
                throw error
            }
        }
    }
}
