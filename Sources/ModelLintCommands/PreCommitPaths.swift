import Foundation
import ModelLintSupport
import ModelLintHistory
import ModelLintCompiled
import ModelLintEngine

/// `check --pre-commit`: what a commit touches, including what the pre-commit framework never passes a hook.
/// It passes the staged files that exist; a staged deletion (a version folder `git rm`-ed) and a staged change
/// to the configuration or lock file change the verdict on bundles too. One `git diff --cached` finds those.
package enum PreCommitPaths {
    /// The paths to lint: the ones given, each bundle a staged change (a deletion included) is inside, when the
    /// bundle still exists, and every bundle under a staged `.modellint.json` or `modellint.lock`. Empty: nothing
    /// of modellint's concern is in the commit.
    /// `repositories`: the run's, so the lint that follows does not discover the repository again.
    package static func paths(given: [String], workingDirectory: String, repositories: RepositoryCache) throws -> [String] {
        let repository = try repositories.repository(containing: workingDirectory)
        let result = repository.run(["diff", "--cached", "--name-only", "--no-renames", "-z"])
        guard result.status == 0 else { throw GitRepository.GitError(message: "git diff --cached failed: \(result.error)") }
        let fields = String(decoding: result.output, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: true).map(String.init)
        var paths = given
        for path in fields {
            let absolute = repository.toplevel + "/" + path
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if name == ".modellint.json" || name == LockFile.fileName {
                // The rules or the shipped record changed: every bundle the file governs, i.e. its folder's.
                paths.append(CompiledModelReader.folder(of: absolute))
            } else if let bundle = PathTools.enclosingBundle(of: absolute), FileReader.kind(at: bundle) == .directory {
                // Staged additions and edits too, so a plain git hook needs no file list of its own.
                paths.append(bundle)
            }
        }
        return paths
    }
}
