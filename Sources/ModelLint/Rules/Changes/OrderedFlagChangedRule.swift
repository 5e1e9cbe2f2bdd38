import ModelLintModel
import ModelLintDiff

package struct OrderedFlagChangedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "ordered-flag-changed", category: .changes, severity: .warning,
        summary:
            "ordered -> unordered loses the order (warning); unordered -> ordered gets an arbitrary initial order (note)",
        rationale: """
            Inferred migration accepts both directions. Ordered -> unordered throws the user's ordering away; \
            unordered -> ordered keeps every object but in an order nobody chose.
            """,
        fix: "if the order matters, keep it in an attribute (a position) copied before the change",
        examples: [
            .triggering(
                before: """
                    <entity name="Playlist">
                        <relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
                    </entity>
                    """,
                after: """
                    <entity name="Playlist">
                        ↓<relationship name="songs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Playlist">
                        <relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
                    </entity>
                    """,
                after: """
                    <entity name="Playlist">
                        <relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard let old = pair.oldRelationship, let new = pair.newRelationship, old.isOrdered != new.isOrdered,
                old.isToMany, new.isToMany
            else { return nil }
            if old.isOrdered {
                return .change(
                    "\(pair.label) changed from ordered to unordered \(versions.between): the stored order is lost",
                    entity: entity.new, property: pair.new, severity: .warning)
            }
            return .change(
                "\(pair.label) changed from unordered to ordered \(versions.between): existing objects get an arbitrary initial order",
                entity: entity.new, property: pair.new, severity: .note)
        }
    }
}
