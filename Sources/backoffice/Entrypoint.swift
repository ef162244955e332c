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

  /// One readable line on stderr and a non-zero exit, never a crash trace.
  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("backoffice: \(message)\n".utf8))
    exit(1)
  }
}
