import Foundation

/// The pipeline: bundle -> rules -> diagnostics, with severities resolved from the catalog, the
/// configuration and where the version sits relative to the current one.
public struct Linter: Sendable {
    public var configuration: Configuration
    public var rules: [any Rule]

    public init(configuration: Configuration, rules: [any Rule] = RuleRegistry.all) {
        self.configuration = configuration
        self.rules = rules
    }

    /// Finds, reads and lints every bundle that `paths` select.
    public func lint(paths: [String], workingDirectory: String) throws -> LintReport {
        let finder = BundleFinder(
            workingDirectory: workingDirectory, exclude: configuration.exclude, excludeBase: configuration.baseDirectory)
        let selections = try finder.bundles(for: paths)
        let bundles = selections.map { selection in
            BundleLoader.load(
                bundleURL: URL(fileURLWithPath: selection.absolutePath), displayPath: selection.displayPath,
                versionOrder: configuration.settings(forBundleAt: selection.absolutePath)?.versionOrder)
        }
        return LintReport(
            bundles: bundles.map { BundleSummary(path: $0.path, currentVersion: $0.currentVersion?.name, versions: $0.versions.map(\.name)) },
            diagnostics: bundles.flatMap(lint))
    }

    public func lint(_ bundle: ModelBundle) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let currentIndex = bundle.currentVersionIndex ?? 0

        func emit(_ rule: any Rule, _ findings: [Finding], version: String?, downgrade: Bool) {
            let description = rule.description
            let level = configuration.rules[description.id] ?? .severity(description.severity)
            guard case .severity(let configured) = level else { return }
            for finding in findings {
                // A rule's case-dependent severity is its default; a configured level overrides both.
                var severity = configuration.rules[description.id] == nil ? (finding.severity ?? configured) : configured
                if downgrade { severity = .note }
                diagnostics.append(Diagnostic(
                    ruleId: description.id, severity: severity, message: finding.message,
                    fix: description.fix, bundle: bundle.path, file: finding.location.file,
                    line: finding.location.line, column: finding.location.column, version: finding.version ?? version,
                    entity: finding.entity, property: finding.property))
            }
        }

        for case let rule as any BundleRule in rules {
            emit(rule, rule.check(bundle), version: nil, downgrade: false)
        }
        let versionRules = rules.compactMap { $0 as? any VersionRule }
        for (index, version) in bundle.versions.enumerated() {
            guard let model = version.model else { continue }
            // A shipped version can no longer be fixed, only learned from; staged versions keep full severity.
            let downgrade = index < currentIndex
            for rule in versionRules {
                emit(rule, rule.check(model), version: version.name, downgrade: downgrade)
            }
        }
        return diagnostics
    }
}
