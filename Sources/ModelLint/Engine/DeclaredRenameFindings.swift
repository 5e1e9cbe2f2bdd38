import ModelLintModel
import ModelLintRules

/// A declared rename (`renamed` in the configuration) says what a step did: the findings that guess it (a removal
/// and an addition, a rename guess) are not reported for the elements it names. When the model does not carry the
/// rename, `declared-rename-missing-id` says so instead, once.
package enum DeclaredRenameFindings {
    /// The change rules whose findings a declared rename answers.
    static let answered: Set<String> = [
        EntityRemovedRule.description.id, PropertyRemovedRule.description.id,
        EntityRenamedWithoutRenamingIDRule.description.id, PropertyRenamedWithoutRenamingIDRule.description.id,
    ]

    /// Whether a declared rename answers this finding: one of the answered rules, about the renamed element (by its
    /// old or new name), on the renaming step or on an older version's pair with the current one.
    package static func answers(_ raw: RawFinding, renamed: [DeclaredRename]) -> Bool {
        let rule: String
        switch raw.subject {
        case .step(_, let to, _):
            guard renamed.contains(where: { $0.version.isExactly(to) }) else { return false }
            rule = raw.rule.id
        case .skippedVersions(let found, _):
            rule = found.underlyingRuleId
        case .whole, .version, .shipped:
            return false
        }
        guard answered.contains(rule) else { return false }
        let entity = raw.finding.entity
        let property = raw.finding.property
        return renamed.contains { rename in
            if let renamedProperty = rename.property {
                return entity == rename.entity && (property == renamedProperty || property == rename.from)
            }
            return property == nil && (entity == rename.entity || entity == rename.from)
        }
    }
}
