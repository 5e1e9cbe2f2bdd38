import ModelLintSupport
import ModelLintModel

/// Judges what a gate run's change does to the settings the verdicts follow; never reads them itself.
package struct ConfigurationWeakenedRule: ConfigurationChangeRule {
    package init() {}

    package static let description = RuleDescription(
        id: "configuration-weakened", category: .shippedHistory, severity: .warning,
        summary:
            "a change that loosens the configuration, lock file or baseline its own gate is judged by",
        rationale: """
            A pull request is judged with the configuration, lock file and baseline it contains. A change that adds a \
            `.modellint.json` beside a bundle turning a rule off, empties or deletes the lock file, or adds baseline \
            entries changes the verdict of the very run that gates it: an edit of a shipped version or a new required \
            attribute then passes with exit 0. In a gate run (`--against REF`, `--pre-commit`) each such change is \
            compared with the files that governed the bundle at the revision. Turning off (or below error) a rule the \
            revision enables, and removing or rewriting a shipped version's lock record, are errors unless the \
            revision's configuration sets `"allowNestedOverrides": true`; other loosening (exclude globs, baseline \
            entries, `oldestMigratedVersion`, `"cloudKit": false`, `"includeUnshipped"` turned off, a changed \
            `migration` or `versionOrder`) is a warning.
            """,
        fix:
            "make the configuration change in a pull request of its own that the team reviews (or set \"allowNestedOverrides\": true in the root configuration to let changes carry their own settings); restore lock records with `modellint lock`",
        examples: [
            RuleExample.configurationChange(
                before: #"{ "rules": { "entity-removed": "error" } }"#,
                after: #"{ "rules": { "entity-removed": "off" } }"#, triggers: true
            ).expecting(.error).expectingMessage(
                ".modellint.json turns entity-removed off (error at main): this run, gated against main, would no longer report it"
            ),
            RuleExample.configurationChange(
                before: nil, after: #"{ "exclude": ["Legacy/**"] }"#, triggers: true
            ).expectingMessage(".modellint.json adds the exclude glob Legacy/** (compared with main)"),
            RuleExample.configurationChange(
                before: #"{ "allowNestedOverrides": true }"#, after: #"{ "rules": { "entity-removed": "off" } }"#,
                triggers: true
            ).expecting(.warning),
            RuleExample.configurationChange(
                before: #"{ "rules": { "entity-removed": "warning" } }"#,
                after: #"{ "rules": { "entity-removed": "error" } }"#, triggers: false),
        ])

    package func check(_ changes: [ConfigurationChange]) -> [Finding] {
        changes.map { change in
            let gating = change.effect != .loosens && !change.overridesAllowed
            let consequence: String
            switch change.effect {
            case .silencesRule:
                consequence = ": this run, gated against \(change.revision), would no longer report it"
            case .removesLockRecord:
                consequence =
                    ": those shipped versions are protected by nothing in this run, gated against \(change.revision)"
            case .loosens:
                consequence = " (compared with \(change.revision))"
            }
            return Finding(
                "\(change.file) \(change.description)\(consequence)",
                at: SourceLocation(file: change.file, line: change.line), severity: gating ? .error : .warning)
        }
    }
}
