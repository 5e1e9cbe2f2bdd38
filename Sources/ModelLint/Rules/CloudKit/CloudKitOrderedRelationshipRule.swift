import ModelLintModel

package struct CloudKitOrderedRelationshipRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "cloudkit-ordered-relationship", category: .cloudKit, severity: .error,
        summary: "an ordered relationship in a CloudKit-mirrored model",
        rationale: """
            CloudKit has no ordered sets; NSPersistentCloudKitContainer refuses to load a store whose model has an ordered relationship (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "make the relationship unordered and keep the order in an attribute (a position)",
        examples: [
            .triggering(
                """
                <entity name="Playlist">
                    ↓<relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Playlist"/>
                </configuration>
                """),
            .passing(
                """
                <entity name="Playlist">
                    <relationship name="songs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Playlist"/>
                </configuration>
                """),
        ])

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        CloudKitScope.findings(in: model, context: context) { entity in
            entity.relationships.filter(\.isOrdered).map {
                ("\(entity.name).\($0.name) is ordered", $0.location, $0.name)
            }
        }
    }
}
