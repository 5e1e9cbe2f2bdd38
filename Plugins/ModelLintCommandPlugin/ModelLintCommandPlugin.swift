import Foundation
import PackagePlugin

/// `swift package modellint [check options]`: runs `modellint check` on the package directory (or, from Xcode's
/// project menu, on the project's directory).
@main
struct ModelLintCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try Self.check(
            tool: context.tool(named: "modellint").url, directory: context.package.directoryURL, arguments: arguments)
    }

    static func check(tool: URL, directory: URL, arguments: [String]) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = ["check"] + (arguments.isEmpty ? [directory.path] : arguments)
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("modellint check exited with status \(process.terminationStatus)")
        }
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension ModelLintCommandPlugin: XcodeCommandPlugin {
        func performCommand(context: XcodePluginContext, arguments: [String]) throws {
            try Self.check(
                tool: context.tool(named: "modellint").url, directory: context.xcodeProject.directoryURL,
                arguments: arguments)
        }
    }
#endif
