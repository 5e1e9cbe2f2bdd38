public struct CloudKitDenyDeleteRuleRule: VersionRule {
    public init() {}

    public static let description = RuleDescription(
        id: "cloudkit-deny-delete-rule", category: .cloudKit, severity: .error,
        summary: "a Deny delete rule in a CloudKit-mirrored model",
        rationale: """
            A delete synced from another device cannot be refused, so NSPersistentCloudKitContainer refuses to load a store whose model has a Deny delete rule (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "use Nullify or Cascade, and enforce the constraint in code",
        examples: [
            .triggering("""
                <entity name="Owner">
                    ↓<relationship name="pets" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Owner"/>
                </configuration>
                """),
            .passing("""
                <entity name="Owner">
                    <relationship name="pets" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
                </entity>
                <configuration name="Local">
                    <memberEntity name="Owner"/>
                </configuration>
                """),
        ])

    public func check(_ model: Model, context: RuleContext) -> [Finding] {
        guard let scope = CloudKitScope.of(model, context: context) else { return [] }
        var findings: [Finding] = []
        for entity in scope.entities(of: model) {
            for relationship in entity.relationships where relationship.deleteRule == .deny {
                findings.append(Finding("\(entity.name).\(relationship.name) has the Deny delete rule: \(CloudKitScope.refusal) (CloudKit rules are on: \(scope.reason))",
                                        at: relationship.location, entity: entity.name, property: relationship.name))
            }
        }
        return findings
    }
}
