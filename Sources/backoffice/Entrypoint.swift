import BackofficeServer
import Foundation
import Logging
import Vapor

@main
enum Entrypoint {
  static func main() async {
    var env: Environment
    do {
      env = try Environment.detect()
      try LoggingSystem.bootstrap(from: &env)
    } catch {
      fail("\(error)")
    }
    let app: Application
    do {
      app = try await Application.make(env)
    } catch {
      fail("Could not start: \(error)")
    }
    app.directory = locateAssets(default: app.directory)
    do {
      let config = try AppConfig.load(from: ProcessInfo.processInfo.environment)
      try await configure(app, config: config)
      try await app.execute()
      try await app.asyncShutdown()
    } catch {
      try? await app.asyncShutdown()
      fail("\(error)")
    }
  }

  /// Finds `Public/` when the binary is started from another folder: first the working
  /// directory, then the folders above the executable (`.build/debug/backoffice` → repository).
  static func locateAssets(default directory: DirectoryConfiguration) -> DirectoryConfiguration {
    let files = FileManager.default
    if files.fileExists(atPath: directory.publicDirectory) { return directory }
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    for _ in 0..<4 {
      folder.deleteLastPathComponent()
      if files.fileExists(atPath: folder.appendingPathComponent("Public").path) {
        return DirectoryConfiguration(workingDirectory: folder.path)
      }
    }
    return directory
  }

  /// One readable line on stderr and a non-zero exit, never a crash trace.
  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("backoffice: \(message)\n".utf8))
    exit(1)
  }
}
