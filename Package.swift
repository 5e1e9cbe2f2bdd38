// swift-tools-version:6.0
import PackageDescription

// The pipeline, one target per stage, each depending only on the stages below it: the compiler rejects a
// reference that points back up (docs/architecture.md).
//   Support <- Model <- Diff <- History <- Rules <- Engine <- Reporting <- Commands <- modellint
//   Model <- Compiled <- Stores <- Rules;  Model <- Projects <- Rules
let package = Package(
    name: "modellint",
    // JSON5 decoding and the plugin APIs used here need macOS 13; Linux ignores this.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "modellint", targets: ["modellint"]),
        .library(name: "ModelLint", targets: ["ModelLintSupport", "ModelLintModel", "ModelLintDiff", "ModelLintHistory", "ModelLintCompiled", "ModelLintStores", "ModelLintProjects", "ModelLintRules", "ModelLintEngine", "ModelLintReporting", "ModelLintCommands"]),
        .plugin(name: "ModelLintCommandPlugin", targets: ["ModelLintCommandPlugin"]),
        .plugin(name: "ModelLintBuildToolPlugin", targets: ["ModelLintBuildToolPlugin"]),
    ],
    targets: [
        // bytes, files, JSON, property lists, SHA-2, safe text: nothing about Core Data
        .target(name: "ModelLintSupport", dependencies: []),
        // the model graph, the XML parser that builds it, and Core Data's hashes of it
        .target(name: "ModelLintModel", dependencies: ["ModelLintSupport"]),
        // Core Data's matching of two versions, and diff's classification
        .target(name: "ModelLintDiff", dependencies: ["ModelLintSupport", "ModelLintModel"]),
        // shipped versions: lock files, git, finding bundles and the files around them
        .target(name: "ModelLintHistory", dependencies: ["ModelLintSupport", "ModelLintModel", "ModelLintDiff"]),
        // compiled models: .momd, .mom, .cdm read as property-list graphs
        .target(name: "ModelLintCompiled", dependencies: ["ModelLintSupport", "ModelLintModel"]),
        // SQLite stores (read-only) and their Core Data metadata
        .target(name: "ModelLintStores", dependencies: ["ModelLintSupport", "ModelLintModel", "ModelLintCompiled"]),
        // project.pbxproj and references to the model in Swift code
        .target(name: "ModelLintProjects", dependencies: ["ModelLintSupport", "ModelLintModel"]),
        // one rule per file, the rule kinds, the registry, the examples
        .target(name: "ModelLintRules", dependencies: ["ModelLintSupport", "ModelLintModel", "ModelLintDiff", "ModelLintHistory", "ModelLintCompiled", "ModelLintStores", "ModelLintProjects"]),
        // the engines that run each rule kind, configuration, baselines, suppressions
        .target(name: "ModelLintEngine", dependencies: ["ModelLintSupport", "ModelLintModel", "ModelLintDiff", "ModelLintHistory", "ModelLintCompiled", "ModelLintStores", "ModelLintProjects", "ModelLintRules"]),
        // one reporter per format
        .target(name: "ModelLintReporting", dependencies: ["ModelLintSupport", "ModelLintModel", "ModelLintDiff", "ModelLintHistory", "ModelLintCompiled", "ModelLintStores", "ModelLintProjects", "ModelLintRules", "ModelLintEngine"]),
        // one file per command; finding and reading what a command needs
        .target(name: "ModelLintCommands", dependencies: ["ModelLintSupport", "ModelLintModel", "ModelLintDiff", "ModelLintHistory", "ModelLintCompiled", "ModelLintStores", "ModelLintProjects", "ModelLintRules", "ModelLintEngine", "ModelLintReporting"]),
        // The thin command line; the target is named like its product so plugins can run it as a tool.
        .executableTarget(name: "modellint", dependencies: ["ModelLintCommands", "ModelLintSupport"], path: "Sources/ModelLintCLI"),
        .testTarget(name: "ModelLintTests", dependencies: ["ModelLintSupport", "ModelLintModel", "ModelLintDiff", "ModelLintHistory", "ModelLintCompiled", "ModelLintStores", "ModelLintProjects", "ModelLintRules", "ModelLintEngine", "ModelLintReporting", "ModelLintCommands"]),
        // `swift package modellint`: check the package's bundles; everything else comes from .modellint.json.
        .plugin(
            name: "ModelLintCommandPlugin",
            capability: .command(
                intent: .custom(verb: "modellint", description: "Lint the package's Core Data model bundles (.xcdatamodeld)"),
                permissions: []),
            dependencies: ["modellint"]),
        // Findings as build diagnostics in Xcode and swift build; errors fail the build.
        .plugin(name: "ModelLintBuildToolPlugin", capability: .buildTool(), dependencies: ["modellint"]),
    ]
)
