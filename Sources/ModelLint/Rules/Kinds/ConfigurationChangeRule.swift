import ModelLintSupport
import ModelLintModel

/// What a change does to a setting that decides verdicts (the configuration, the lock file, the baseline), seen by
/// a gate run (`--against`, `--pre-commit`) against the revision it compares with: found by the gather stage, which
/// reads both sides; judged by the rules without reading anything.
package struct ConfigurationChange: Sendable, Equatable {
    package enum Effect: Sendable, Equatable {
        /// A rule the revision enables no longer fails the build (off, or below error where it was an error).
        case silencesRule
        /// A shipped version's lock record removed or rewritten.
        case removesLockRecord
        /// Any other loosening: exclude globs, baseline entries, settings that stop comparisons.
        case loosens
    }

    /// The file as displayed (the one in force now; the revision's when the change deletes it).
    package var file: String
    package var line: Int?
    /// What changed, as a key path (`rules.shipped-version-edited`, `exclude`, `Near.xcdatamodeld: Near 1`).
    package var key: String
    package var effect: Effect
    /// What the change does, in words (`turns shipped-version-edited off (error at main)`).
    package var description: String
    /// The revision compared with, as given (`main`, `HEAD`).
    package var revision: String
    /// The revision's root configuration sets `allowNestedOverrides`: the team lets changes set their own rules.
    package var overridesAllowed: Bool

    package init(
        file: String, line: Int?, key: String, effect: Effect, description: String, revision: String,
        overridesAllowed: Bool
    ) {
        self.file = file
        self.line = line
        self.key = key
        self.effect = effect
        self.description = description
        self.revision = revision
        self.overridesAllowed = overridesAllowed
    }
}

/// Judges what a gate run's change does to the settings its verdicts follow.
package protocol ConfigurationChangeRule: Rule {
    func check(_ changes: [ConfigurationChange]) -> [Finding]
}

extension ConfigurationChangeRule { package var kind: RuleKind { .configurationChange(self) } }
