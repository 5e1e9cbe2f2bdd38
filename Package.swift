// swift-tools-version:6.0
import PackageDescription

// The pipeline, one target per stage in Sources/ModelLint/<Stage>, each depending only on the stages below it: the
// compiler rejects a reference that points back up (docs/architecture.md).
//   Support <- Model <- Diff <- History <- Rules <- Gather <- Engine <- Reporting <- Commands <- modellint
//   Model <- Compiled <- Stores <- Rules;  Model <- Projects <- Rules;  Model <- SwiftData <- Rules;  Rules <- Repair <- Commands

/// A library stage of the pipeline, in `Sources/ModelLint/<name>`, importing only the stages below it it names.
func stage(_ name: String, _ below: [String]) -> Target {
    .target(
        name: "ModelLint" + name, dependencies: below.map { .target(name: "ModelLint" + $0) },
        path: "Sources/ModelLint/" + name)
}

/// The prebuilt modellint the plugins run on macOS, from a release's artifact bundle, so an app's build never compiles
/// modellint. The release workflow writes this line: `.binaryTarget(name: "ModelLintBinary", url: …, checksum: …)`.
/// Before a first release it is nil, and elsewhere than macOS the plugins build modellint from source: building or
/// testing this package on Linux never downloads it (SwiftPM fetches a root package's binary targets when it resolves).
let releasedBinary: Target? = nil
#if os(macOS)
    let releasedBinaryPlatform = true
#else
    let releasedBinaryPlatform = false
#endif
let pluginBinary = releasedBinaryPlatform ? releasedBinary : nil
/// What the plugins run: the released binary where there is one, else modellint built from these sources.
let pluginTool: Target.Dependency = pluginBinary.map { .target(name: $0.name) } ?? "modellint"

let package = Package(
    name: "modellint",
    // JSON5 decoding and the plugin APIs used here need macOS 13; Linux ignores this.
    platforms: [.macOS(.v13)],
    // No library product: modellint is a command-line tool (docs/api.md). Its stages share declarations at `package`
    // access, which this package's targets, tests and plugins see and nothing outside it does.
    products: [
        .executable(name: "modellint", targets: ["modellint"]),
        .plugin(name: "ModelLintCommandPlugin", targets: ["ModelLintCommandPlugin"]),
        .plugin(name: "ModelLintBuildToolPlugin", targets: ["ModelLintBuildToolPlugin"]),
    ],
    targets: [
        // bytes, files, JSON, property lists, SHA-2, safe text: nothing about Core Data
        stage("Support", []),
        // the model graph, the XML parser that builds it, and Core Data's hashes of it
        stage("Model", ["Support"]),
        // Core Data's matching of two versions, and diff's classification
        stage("Diff", ["Support", "Model"]),
        // shipped versions: lock files, git, finding bundles and the files around them
        stage("History", ["Support", "Model", "Diff"]),
        // compiled models: .momd, .mom, .cdm read as property-list graphs
        stage("Compiled", ["Support", "Model"]),
        // SQLite stores (read-only) and their Core Data metadata
        stage("Stores", ["Support", "Model", "Compiled"]),
        // project.pbxproj and references to the model in Swift code
        stage("Projects", ["Support", "Model"]),
        // Swift source read as declarations, and SwiftData's schemas built into the model graph
        stage("SwiftData", ["Support", "Model"]),
        // one rule per file, the rule kinds, the registry, the examples
        stage("Rules", ["Support", "Model", "Diff", "History", "Compiled", "Stores", "Projects", "SwiftData"]),
        // the app as its build sees it, read into one input: bundles, mapping models, projects, code, stores,
        // history, configuration (every file and git read of a run happens here)
        stage(
            "Gather", ["Support", "Model", "Diff", "History", "Compiled", "Stores", "Projects", "SwiftData", "Rules"]),
        // the engine that runs each rule kind, baselines, suppressions
        stage(
            "Engine",
            ["Support", "Model", "Diff", "History", "Compiled", "Stores", "Projects", "SwiftData", "Rules", "Gather"]),
        // mechanical repairs of findings: what `fix` writes, planned as byte replacements
        stage("Repair", ["Support", "Model", "Rules"]),
        // one reporter per format
        stage(
            "Reporting",
            [
                "Support", "Model", "Diff", "History", "Compiled", "Stores", "Projects", "SwiftData", "Rules", "Gather",
                "Engine",
            ]),
        // one file per command; finding and reading what a command needs
        stage(
            "Commands",
            [
                "Support", "Model", "Diff", "History", "Compiled", "Stores", "Projects", "SwiftData", "Rules", "Gather",
                "Engine", "Reporting", "Repair",
            ]),
        // The thin command line; the target is named like its product so plugins can run it as a tool.
        .executableTarget(
            name: "modellint", dependencies: ["ModelLintCommands", "ModelLintSupport"], path: "Sources/ModelLintCLI"),
        // What only the tests need from the rule examples (as swift-format's _SwiftFormatTestSupport): their
        // bundles written to disk, their builds, stores and shipped records. Not part of any product.
        .target(
            name: "ModelLintTestSupport",
            dependencies: [
                "ModelLintSupport", "ModelLintModel", "ModelLintHistory", "ModelLintCompiled", "ModelLintStores",
                "ModelLintRules",
            ],
            path: "Tests/ModelLintTestSupport"),
        .testTarget(
            name: "ModelLintTests",
            dependencies: [
                "ModelLintSupport", "ModelLintModel", "ModelLintDiff", "ModelLintHistory", "ModelLintCompiled",
                "ModelLintStores", "ModelLintProjects", "ModelLintSwiftData", "ModelLintRules", "ModelLintEngine",
                "ModelLintReporting", "ModelLintCommands", "ModelLintTestSupport", "ModelLintRepair", "ModelLintGather",
            ],
            // The reporters' canned outputs, read from the source tree by ReporterSnapshotTests.
            exclude: ["Snapshots"]),
        // `swift package modellint`: check the package's bundles; everything else comes from .modellint.json.
        .plugin(
            name: "ModelLintCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "modellint", description: "Lint the package's Core Data model bundles (.xcdatamodeld)"),
                permissions: []),
            dependencies: [pluginTool]),
        // Findings as build diagnostics in Xcode and swift build; errors fail the build.
        .plugin(name: "ModelLintBuildToolPlugin", capability: .buildTool(), dependencies: [pluginTool]),
    ]
)
if let pluginBinary { package.targets.append(pluginBinary) }
