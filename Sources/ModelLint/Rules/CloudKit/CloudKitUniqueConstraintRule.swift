import ModelLintModel

package struct CloudKitUniqueConstraintRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "cloudkit-unique-constraint", category: .cloudKit, severity: .error,
        summary: "a uniqueness constraint in a CloudKit-mirrored model",
        rationale: """
            CloudKit cannot enforce uniqueness across devices, so NSPersistentCloudKitContainer refuses to load a store whose model has uniqueness constraints (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "remove the constraint and de-duplicate in code (for example after each import)",
        examples: [
            .triggering(
                """
                <entity name="Tag">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <uniquenessConstraints>
                        ↓<uniquenessConstraint>
                            <constraint value="title"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Tag"/>
                </configuration>
                """),
            .passing(
                """
                <entity name="Tag">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="title"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                <entity name="Note">
                    <attribute name="body" optional="YES" attributeType="String"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                </configuration>
                """),
        ])

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        CloudKitScope.findings(in: model, context: context) { entity in
            entity.uniquenessConstraints.map {
                (
                    "\(entity.name) has a uniqueness constraint (\($0.properties.joined(separator: ", ")))",
                    $0.location, nil
                )
            }
        }
    }
}
