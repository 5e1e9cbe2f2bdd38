import ModelLintSupport
import ModelLintHistory
import ModelLintRules
import ModelLintEngine

/// `check --against REF --only-new`: the findings the change introduces. The bundles are linted as they are at REF
/// too (with the same configuration and lock file), and a finding is old when REF has one with the same stable
/// identity (`Diagnostic.stableKey`, keyed by the bundle's path in the repository). Each REF finding absorbs one
/// current finding, so a problem that now occurs twice is new once.
extension Workspace {
    package func onlyNew(_ report: LintReport, against ref: String, linter: Linter) throws -> LintReport {
        var atRef = history
        atRef.against = nil
        atRef.released = nil
        var remaining: [String: Int] = [:]
        var keyOfBundle: [String: String] = [:]
        for summary in report.bundles {
            let absolute = PathTools.absolute(summary.path, relativeTo: workingDirectory)
            let repository = try history.repository(forBundleAt: absolute, workingDirectory: workingDirectory)
            let key = PathTools.relative(PathTools.standardize(absolute), to: repository.toplevel) ?? absolute
            keyOfBundle[summary.path] = key
            let settings = configuration.settings(forBundleAt: absolute)
            guard let bundle = try repository.bundle(atPath: absolute, commit: try repository.resolve(ref), label: ref, versionOrder: settings?.versionOrder) else {
                continue  // the bundle is new in this change: every finding is
            }
            let histories = try atRef.histories(forBundleAt: absolute, versionOrder: settings?.versionOrder, workingDirectory: workingDirectory)
            for d in linter.lint(bundle.orderedByEvidence(mappingPairs: []) { nil }, settings: settings, histories: histories) {
                remaining[d.stableKey(bundle: key), default: 0] += 1
            }
        }
        let kept = report.diagnostics.filter { d in
            let key = d.stableKey(bundle: keyOfBundle[d.bundle] ?? d.bundle)
            guard let count = remaining[key], count > 0 else { return true }
            remaining[key] = count - 1
            return false
        }
        var filtered = LintReport(bundles: report.bundles, diagnostics: kept)
        filtered.unreadablePaths = report.unreadablePaths
        filtered.outsidePaths = report.outsidePaths
        return filtered
    }
}
