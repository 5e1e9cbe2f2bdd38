import ModelLintModel

package struct UnknownEntityReferenceRule: EntityRule {
    package init() {}

    package static let description = RuleDescription(
        id: "unknown-entity-reference", category: .singleVersion, severity: .error,
        summary:
            "a parent, destination, inverse entity, configuration member or fetch request naming a missing entity; an inheritance cycle",
        rationale: """
            A reference to an entity that is not in the model (renamed or deleted without updating its references) \
            makes the model fail to compile or load; an inheritance cycle has no root table.
            """,
        fix: "point the reference at an existing entity, or break the cycle",
        examples: [
            .triggering(
                """
                ↓<entity name="Thing" parentEntity="Base"/>
                <entity name="Owner">
                    ↓<relationship name="things" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Thingy"/>
                </entity>
                <configuration name="Cloud">
                    ↓<memberEntity name="Gone"/>
                </configuration>
                ↓<fetchRequest name="All" entity="Nothing"/>
                """),
            .triggering(
                """
                ↓<entity name="A" parentEntity="B"/>
                ↓<entity name="B" parentEntity="A"/>
                """),
            .passing(
                """
                <entity name="Base" isAbstract="YES"/>
                <entity name="Thing" parentEntity="Base">
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="things" inverseEntity="Owner"/>
                </entity>
                <entity name="Owner">
                    <relationship name="things" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Thing" inverseName="owner" inverseEntity="Thing"/>
                </entity>
                <configuration name="Cloud">
                    <memberEntity name="Thing"/>
                </configuration>
                """),
        ])

    private func missing(_ name: String?, in model: Model) -> Bool {
        name.map { !$0.isEmpty && model.entity(named: $0) == nil } ?? false
    }

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        var findings: [Finding] = []
        func missing(_ name: String?) -> Bool { self.missing(name, in: model) }
        if missing(entity.parentEntity) {
            findings.append(
                Finding(
                    "\(entity.name)'s parent entity \(entity.parentEntity!) does not exist", at: entity.location,
                    entity: entity.name))
        } else if model.hasInheritanceCycle(entity) {
            findings.append(
                Finding(
                    "\(entity.name) is part of an inheritance cycle (its parent chain returns to itself)",
                    at: entity.location, entity: entity.name))
        }
        for relationship in entity.relationships {
            let label = "\(entity.name).\(relationship.name)"
            if relationship.destinationEntity == nil || relationship.destinationEntity == "" {
                findings.append(
                    Finding(
                        "\(label) has no destination entity", at: relationship.location, entity: entity.name,
                        property: relationship.name))
            } else if missing(relationship.destinationEntity) {
                findings.append(
                    Finding(
                        "\(label) points at entity \(relationship.destinationEntity!), which does not exist",
                        at: relationship.location, entity: entity.name, property: relationship.name))
            } else if missing(relationship.inverseEntity) {
                findings.append(
                    Finding(
                        "\(label) names inverse entity \(relationship.inverseEntity!), which does not exist",
                        at: relationship.location, entity: entity.name, property: relationship.name))
            }
        }
        for fetched in entity.fetchedProperties where missing(fetched.fetchRequest?.entity) {
            findings.append(
                Finding(
                    "fetched property \(entity.name).\(fetched.name) fetches entity \(fetched.fetchRequest!.entity!), which does not exist",
                    at: fetched.location, entity: entity.name, property: fetched.name))
        }
        return findings
    }

    package func checkModel(_ model: Model, context: RuleContext) -> [Finding] {
        var findings: [Finding] = []
        func missing(_ name: String?) -> Bool { self.missing(name, in: model) }
        for configuration in model.configurations {
            for member in configuration.members where missing(member.entity) {
                findings.append(
                    Finding(
                        "configuration \(configuration.name) lists entity \(member.entity), which does not exist",
                        at: member.location, entity: member.entity))
            }
        }
        for request in model.fetchRequests where missing(request.entity) {
            findings.append(
                Finding(
                    "fetch request \(request.name) fetches entity \(request.entity!), which does not exist",
                    at: request.location))
        }
        return findings
    }
}
