import Foundation
import PackagePlugin

/// `swift package modellint [check options]`: runs `modellint check` on the package directory.
@main
struct ModelLintCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "modellint")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["check"] + (arguments.isEmpty ? [context.package.directoryURL.path] : arguments)
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("modellint check exited with status \(process.terminationStatus)")
        }
    }
}
