import ModelLintSupport
import ModelLintModel
import ModelLintHistory

/// Judges the lock file's own entries against what is on disk; never reads the lock file itself.
package struct LockEntryOrphanedRule: LockFileRule {
    package init() {}

    package static let description = RuleDescription(
        id: "lock-entry-orphaned", category: .shippedHistory, severity: .warning,
        summary: "a lock-file entry that matches no bundle: its versions are protected by nothing",
        rationale: """
            The lock file protects a bundle's shipped versions by its path. When the bundle is moved or renamed, or the \
            key is spelled so it names no folder, the entry matches nothing: every check passes while the shipped \
            versions it records can be edited or deleted freely.
            """,
        fix: "run `modellint lock` for the bundle's new path, and remove the old entry from the lock file",
        examples: [
            RuleExample.lockFile(
                """
                {
                  "format": 1,
                  "bundles": {
                    "Near.xcdatamodeld": { "versions": {} },
                    ↓"Old/Moved.xcdatamodeld": { "versions": { "Moved 1": { "schema": "sha256:0", "content": "sha256:1" } } }
                  }
                }
                """, triggers: true),
            RuleExample.lockFile(
                """
                {
                  "format": 1,
                  "bundles": {
                    "./Near.xcdatamodeld/": { "versions": {} }
                  }
                }
                """, triggers: false),
        ])

    /// Entries whose (normalised) key names no `.xcdatamodeld` folder under the lock file's folder
    /// (`bundleKeysOnDisk`: the keys that do, as the reader found them).
    package func check(_ lock: LockFile, lockPath: String, bundleKeysOnDisk: Set<ExactName>) -> [Finding] {
        lock.bundles.keys.map(\.string).sorted().compactMap { key in
            guard !bundleKeysOnDisk.contains(ExactName(key)) else { return nil }
            let count = lock.bundles[ExactName(key)]?.count ?? 0
            let versions = "\(count) version\(count == 1 ? "" : "s")"
            let message =
                key.hasPrefix("/")
                ? "\(lockPath) records \(key) (\(versions)) by an absolute path outside the lock file's folder: it matches no bundle, so those versions are protected by nothing; record the bundle by its path relative to the lock file"
                : "\(lockPath) records \(key) (\(versions)), which is not a bundle on disk: those versions are protected by nothing; was the bundle moved or renamed?"
            return Finding(message, at: SourceLocation(file: lockPath, line: lock.keyLines[ExactName(key)]))
        }
    }
}
