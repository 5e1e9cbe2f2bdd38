import ModelLintModel

package struct CloudKitDenyDeleteRuleRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "cloudkit-deny-delete-rule", category: .cloudKit, severity: .error,
        summary: "a Deny delete rule in a CloudKit-mirrored model",
        rationale: """
            A delete synced from another device cannot be refused, so NSPersistentCloudKitContainer refuses to load a store whose model has a Deny delete rule (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "use Nullify or Cascade, and enforce the constraint in code",
        examples: [
            .triggering(
                """
                <entity name="Owner">
                    ↓<relationship name="pets" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Owner"/>
                </configuration>
                """),
            .passing(
                """
                <entity name="Owner">
                    <relationship name="pets" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
                </entity>
                <configuration name="Local">
                    <memberEntity name="Owner"/>
                </configuration>
                """),
        ])

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        CloudKitScope.findings(in: model, context: context) { entity in
            entity.relationships.filter { $0.deleteRule == .deny }.map {
                ("\(entity.name).\($0.name) has the Deny delete rule", $0.location, $0.name)
            }
        }
    }
}
