import ModelLintModel

package struct CloudKitMissingInverseRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "cloudkit-missing-inverse", category: .cloudKit, severity: .error,
        summary: "a relationship without an inverse in a CloudKit-mirrored model",
        rationale: """
            CloudKit mirrors relationships through their inverses; NSPersistentCloudKitContainer refuses to load a store whose model has a relationship without one (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "add the inverse relationship on the destination entity",
        examples: [
            .triggering(
                """
                <entity name="Car">
                    ↓<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
                </entity>
                <entity name="Person"/>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                    <memberEntity name="Person"/>
                </configuration>
                """),
            .passing(
                """
                <entity name="Car">
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
                </entity>
                <entity name="Person">
                    <relationship name="cars" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                    <memberEntity name="Person"/>
                </configuration>
                """),
        ])

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        CloudKitScope.findings(in: model, context: context) { entity in
            entity.relationships.filter { $0.inverseName?.isEmpty ?? true }.map {
                ("\(entity.name).\($0.name) has no inverse", $0.location, $0.name)
            }
        }
    }
}
