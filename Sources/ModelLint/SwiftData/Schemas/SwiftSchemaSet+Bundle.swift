import ModelLintModel

extension SwiftSchemaSet {
    /// The schema set as the engine judges a bundle: one version per schema, in order, the last current. Every
    /// rule that reads a bundle's versions reads these.
    package var bundle: ModelBundle {
        let versions = schemas.map { schema in
            ModelVersion(
                name: schema.name, folderPath: schema.location.file, contentsPath: schema.location.file,
                content: .model(schema.model))
        }
        var bundle = ModelBundle(
            path: path, versions: versions, declaredCurrentVersion: schemas.last?.name, currentVersionFile: .present)
        bundle.source = .swiftData(name: name, versioned: !isUnversioned)
        return bundle
    }

    /// A `.custom` stage between two listed schemas covers its step as a mapping model covers a bundle's: Core
    /// Data runs the app's code there, not inference, so what inference would do there is a note naming the stage.
    package var customStages: [MappingModel] {
        let names = Dictionary(schemas.map { ($0.qualifiedName, $0.name) }, uniquingKeysWith: { a, _ in a })
        return stages.compactMap { stage in
            guard stage.kind == .custom, let from = stage.from.flatMap({ names[$0] }),
                let to = stage.to.flatMap({ names[$0] })
            else { return nil }
            let file = stage.location.file.split(separator: "/").last.map(String.init) ?? stage.location.file
            return MappingModel(
                name: "\(from)To\(to)", source: from, destination: to,
                coverage: "the custom stage \(from) -> \(to) (\(file):\(stage.location.line))")
        }
    }
}
