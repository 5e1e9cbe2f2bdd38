import ModelLintModel
import ModelLintDiff

package struct HashModifierChangedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "hash-modifier-changed", category: .changes, severity: .note,
        summary: "a `versionHashModifier` changed: forces a migration with no schema change",
        rationale: """
            The Version Hash Modifier exists to force a migration when the schema did not change (for example, to \
            rebuild indexes or re-run a transformation). The note records whether stores migrate on update, decided \
            as Core Data decides it, by the entity's version hash.
            """,
        fix: "nothing to do if the forced migration is intended",
        examples: [
            .triggering(
                before: "<entity name=\"SaveState\"/>",
                after: "↓<entity name=\"SaveState\" versionHashModifier=\"quick\"/>"),
            .passing(
                before: "<entity name=\"SaveState\" versionHashModifier=\"quick\"/>",
                after: "<entity name=\"SaveState\" versionHashModifier=\"quick\"/>"),
        ])

    package func check(_ pair: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        guard
            pair.facets.contains(.hashModifier)
                || pair.changedProperties.contains(where: { $0.facets.contains(.hashModifier) })
        else { return [] }
        var findings: [ChangeFinding] = []
        // Whether stores migrate is Core Data's hash comparison. Hashed on adjacent steps only: an older ->
        // current pair's finding is shown only when no step has it, and hashing every older version of a long
        // bundle costs more than the rest of its check (a changed modifier of a matched element is always hashed).
        let hashes =
            versions.isAdjacent
            ? (versions.from.model.versionHashes.entities, versions.to.model.versionHashes.entities) : nil
        let migrates = hashes.map { $0.0[pair.old.name] != $0.1[pair.new.name] } ?? true
        let outcome =
            migrates ? "every store migrates" : "\(pair.new.name)'s version hash is unchanged, so no store migrates"
        if pair.facets.contains(.hashModifier) {
            findings.append(
                .change(
                    "\(pair.new.name)'s versionHashModifier changed from \(pair.old.versionHashModifier.map { "\"\($0)\"" } ?? "none") to \(pair.new.versionHashModifier.map { "\"\($0)\"" } ?? "none") \(versions.between): \(outcome)",
                    entity: pair.new))
        }
        for property in pair.changedProperties where property.facets.contains(.hashModifier) {
            func modifier(_ p: Property) -> String {
                let value: String?
                switch p {
                case .attribute(let a): value = a.versionHashModifier
                case .relationship(let r): value = r.versionHashModifier
                }
                return value.map { "\"\($0)\"" } ?? "none"
            }
            findings.append(
                .change(
                    "\(property.label)'s versionHashModifier changed from \(modifier(property.old)) to \(modifier(property.new)) \(versions.between): \(outcome)",
                    entity: pair.new, property: property.new))
        }
        return findings
    }
}
