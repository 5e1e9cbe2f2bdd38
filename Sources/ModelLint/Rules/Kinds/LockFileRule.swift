import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges a lock file's records against the bundles found on disk (keys relative to the lock's folder).
package protocol LockFileRule: Rule {
    func check(_ lock: LockFile, lockPath: String, bundleKeysOnDisk: Set<ExactName>) -> [Finding]
}

extension LockFileRule { package var kind: RuleKind { .lockFile(self) } }
