// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "modellint",
    // JSON5 decoding and the plugin APIs used here need macOS 13; Linux ignores this.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "modellint", targets: ["modellint"]),
        .library(name: "ModelLint", targets: ["ModelLint"]),
        .plugin(name: "ModelLintCommandPlugin", targets: ["ModelLintCommandPlugin"]),
        .plugin(name: "ModelLintBuildToolPlugin", targets: ["ModelLintBuildToolPlugin"]),
    ],
    targets: [
        .target(name: "ModelLint"),
        // The thin command line; the target is named like its product so plugins can run it as a tool.
        .executableTarget(name: "modellint", dependencies: ["ModelLint"], path: "Sources/ModelLintCLI"),
        .testTarget(name: "ModelLintTests", dependencies: ["ModelLint"]),
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
