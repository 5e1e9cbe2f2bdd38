import Foundation
import ModelLintSupport
import ModelLintHistory
import ModelLintCompiled

/// `check --pre-commit`: what a commit touches, including what the pre-commit framework never passes a hook.
/// It passes the staged files that exist; a staged deletion (a version folder `git rm`-ed) and a staged change
/// to the configuration or lock file change the verdict on bundles too. One `git diff --cached` finds those, and
/// the bundles are then read from the index: what is committed, not what the work tree holds.
package enum PreCommitPaths {
    /// What `--pre-commit` lints: paths, and where the bundles' files are read from.
    package struct Selection {
        package var paths: [String]
        /// The repository whose index holds what is being committed: bundles are read from it, not the disk.
        package var repository: GitRepository
        /// Bundles (absolute) the commit deletes whole.
        package var deletedBundles: [String]
        /// The index's entries (`git ls-files --stage -z`), read once when the commit touches a bundle: the bundles
        /// are read from it, and the files beside them listed from it.
        package var indexListing = Data()
        package var listedBundles: Set<String> = []
        /// Staged Swift files (relative to the repository): SwiftData declarations may be among them.
        package var swiftFiles: [String] = []
        /// The commit changes a configuration, lock file or JSON file (a baseline): the settings are compared with
        /// HEAD's (`ConfigurationFloor`). A commit that touches none costs no comparison.
        package var changesSettings = false
    }

    /// The paths to lint: the ones given, each bundle a staged change (a deletion included) is inside, when the
    /// bundle is still in the index, and every bundle under a staged `.modellint.json` or `modellint.lock`.
    /// Empty paths and no deleted bundle: nothing of modellint's concern is in the commit.
    /// `repositories`: the run's, so the lint that follows does not discover the repository again.
    package static func select(given: [String], workingDirectory: String, repositories: RepositoryCache) throws
        -> Selection
    {
        // The index is diffed against HEAD while git finds the repository: both find the same one from this folder
        // (the environment that could point git elsewhere is cleared for each), and the diff's paths are relative
        // to its top folder (`diff.relative`, set in a user's configuration, would make them relative to this
        // folder and hide the rest). The index is then listed from the top folder (from a subfolder, git lists
        // that folder's files alone) while the diff is read: a bundle the commit touches is read from the listing.
        let diffing =
            GitRepository.mayBeInRepository(workingDirectory)
            ? Pending {
                GitRepository.run(
                    [
                        "-c", "diff.relative=false", "diff", "--cached", "--name-only", "--no-renames", "--no-ext-diff",
                        "--no-textconv", "-z",
                    ], in: workingDirectory, repository: nil)
            } : nil
        // No git process outlives the run.
        defer { diffing?.wait() }
        // The index is listed at once too, on another thread, from the folder git will most likely name as the top
        // (the nearest `.git`): read from its index file when this reader knows it (no process), else by git.
        typealias Listing = (status: Int32, output: Data, error: String)
        let listIndex = ["ls-files", "--stage", "-z", "--full-name"]
        let likelyTop = workingDirectory.hasPrefix("/") ? GitRepository.nearestMarkedFolder(workingDirectory) : nil
        let early = likelyTop.map { top in
            Pending { () -> (listing: Listing, fromFile: Bool) in
                if let read = GitIndex.stageListing(gitDirectory: top + "/.git") { return ((0, read, ""), true) }
                return (GitRepository.run(listIndex, in: top, repository: nil), false)
            }
        }
        defer { early?.wait() }
        let repository = try repositories.repository(containing: workingDirectory)
        // The early listing counts only when git names that very folder (and, read from the file, its `.git`);
        // else git lists the index again from the top it names.
        let again = likelyTop == repository.toplevel ? nil : Pending { repository.run(listIndex) }
        defer { again?.wait() }
        func listing() -> Listing {
            if let again { return again.value }
            if let (listing, fromFile) = early?.value,
                !fromFile || likelyTop.map({ $0 + "/.git" }) == repository.gitDirectory
            {
                return listing
            }
            return repository.run(listIndex)
        }
        guard let result = diffing?.value else {
            throw GitRepository.GitError(message: "git diff --cached failed")
        }
        guard result.status == 0 else {
            throw GitRepository.GitError(message: "git diff --cached failed: \(result.error)")
        }
        var fields: [String] = []
        GitRepository.forEachRecord(result.output) { fields.append(String(decoding: $0, as: UTF8.self)) }
        // Swift files are read from the index below, never searched for in the work tree.
        var paths = given.filter { !$0.hasSuffix(".swift") }
        var touchedBundles: [String] = []
        var swiftFiles: [String] = []
        var changesSettings = false
        for path in fields {
            if path.hasSuffix(".swift") {
                swiftFiles.append(path)
                continue
            }
            let absolute = repository.toplevel + "/" + path
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if name.hasSuffix(".json") || name == LockFile.fileName { changesSettings = true }
            if name == ".modellint.json" || name == LockFile.fileName {
                // The rules or the shipped record changed: every bundle the file governs, i.e. its folder's.
                paths.append(CompiledModelReader.folder(of: absolute))
            } else if let bundle = PathTools.enclosingBundle(of: absolute) ?? PathTools.enclosingVersion(of: absolute),
                !touchedBundles.contains(bundle)
            {
                touchedBundles.append(bundle)
            }
        }
        var deleted: [String] = []
        var indexListing = Data()
        var listedBundles: Set<String> = []
        if !touchedBundles.isEmpty {
            // Which touched bundles the index still holds: one listing of the whole index, which also tells the
            // run which files the commit has beside them (mapping models, projects, code).
            let relatives = touchedBundles.compactMap { PathTools.relative($0, to: repository.toplevel) }
            let listing = listing()
            guard listing.status == 0 else {
                throw GitRepository.GitError(message: "git ls-files failed: \(listing.error)")
            }
            // "<mode> <sha> <stage>\t<path>" records: the paths, and the listing kept for reading the bundles.
            indexListing = listing.output
            let staged = GitRepository.recordPaths(listing.output)
            for (bundle, relative) in zip(touchedBundles, relatives) {
                if staged.contains(where: { $0.hasPrefix(relative + "/") }) {
                    // Staged additions and edits too, so a plain git hook needs no file list of its own.
                    if FileReader.kind(at: bundle) == .directory { paths.append(bundle) }
                    listedBundles.insert(bundle)
                } else {
                    deleted.append(bundle)
                }
            }
        }
        var selection = Selection(paths: paths, repository: repository, deletedBundles: deleted)
        selection.indexListing = indexListing
        selection.listedBundles = listedBundles
        selection.swiftFiles = swiftFiles
        selection.changesSettings = changesSettings
        return selection
    }
}
