// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "modellint",
    products: [
        .executable(name: "modellint", targets: ["ModelLintCLI"]),
        .library(name: "ModelLint", targets: ["ModelLint"]),
    ],
    targets: [
        .target(name: "ModelLint"),
        .executableTarget(name: "ModelLintCLI", dependencies: ["ModelLint"]),
        .testTarget(name: "ModelLintTests", dependencies: ["ModelLint"]),
    ]
)
