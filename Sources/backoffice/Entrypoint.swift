import BackofficeServer
import Foundation
import Logging
import NIOCore
import NIOPosix
import Vapor

@main
enum Entrypoint {
  static func main() async {
    // Restoring replaces the database file: it runs before anything opens it.
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "restore" {
      exit(
        ServerRestore.main(
          arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
      )
    }
    runTasksOnEventLoops()
    keepFreedMemoryForReuse()
    quietOneShotCommands()
    raiseOpenFileLimit()
    var env: Environment
    do {
      env = try Environment.detect()
      switch try LogFormat.from(ProcessInfo.processInfo.environment) {
      // Vapor's console format, or JSON lines; either way the handlers of the loggers Vapor
      // makes for every request are made once (`KeptLogHandlers`).
      case .text:
        try LoggingSystem.bootstrap(from: &env) { level in
          let console = Terminal()
          return KeptLogHandlers.factory { label in
            ConsoleLogger(label: label, console: console, level: level)
          }
        }
      case .json:
        try LoggingSystem.bootstrap(from: &env) { level in
          KeptLogHandlers.factory { label in JSONLogHandler(label: label, level: level) }
        }
      }
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
      // A stop signal: requests finish first, then background work and the database stop.
      await app.drain()
      try await app.asyncShutdown()
    } catch {
      try? await app.asyncShutdown()
      fail("\(error)")
    }
  }

  /// Swift's tasks (every async middleware, route handler and database call) run on the
  /// server's event-loop threads instead of Swift's own pool, so a request is not handed from
  /// one pool to the other and back at every step: that hand-off was a quarter of a cached
  /// list answer's cost (docs/PERFORMANCE.md). Nothing here blocks a thread for long: password
  /// hashing, CSV imports, SQLite's writes and longer reads, and the building of backups and
  /// whole-area exports (`BackgroundWork`) run on threads of their own (only the short reads
  /// every request starts with run where the request runs). It must
  /// happen before any other task starts, so it is the first thing `main` does.
  static func runTasksOnEventLoops() {
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
  }

  /// A one-shot command (`user create`, `export`, `import`, …) prints its own result and its own
  /// error; the server's info lines (every migration) and the framework's warning copy of a
  /// failed command would only repeat it. So unless a log level was asked for, those commands
  /// log errors only. `serve` (the default) keeps the normal level.
  static func quietOneShotCommands() {
    let arguments = CommandLine.arguments.dropFirst()
    guard let command = arguments.first, !command.hasPrefix("-"),
      !["serve", "routes"].contains(command),
      ProcessInfo.processInfo.environment["LOG_LEVEL"] == nil,
      !arguments.contains(where: { $0 == "--log" || $0.hasPrefix("--log=") })
    else { return }
    setenv("LOG_LEVEL", "error", 1)
  }

  /// A page is written into one buffer of 60–100 KB and freed once it is sent. With glibc's
  /// defaults that memory went back to the kernel after every page (a free block above
  /// 128 KB at the heap's top is trimmed, a block that large is mapped on its own) and every
  /// next page faulted it in again, page by page: 3 % of a products page's time in page
  /// faults, and as much again copying into memory just handed back (docs/PERFORMANCE.md).
  /// Blocks up to 4 MiB now come from the heap and up to 16 MiB of free heap is kept for the
  /// next request. An operator's own `MALLOC_MMAP_THRESHOLD_` / `MALLOC_TRIM_THRESHOLD_`
  /// (glibc's variables) win.
  static func keepFreedMemoryForReuse() {
    #if os(Linux)
      let environment = ProcessInfo.processInfo.environment
      guard environment["MALLOC_MMAP_THRESHOLD_"] == nil,
        environment["MALLOC_TRIM_THRESHOLD_"] == nil
      else { return }
      // `mallopt` is in <malloc.h>, which Swift's Glibc module does not bring in.
      typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
      let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
      let trimThreshold: Int32 = -1  // M_TRIM_THRESHOLD
      let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD
      _ = mallopt(mmapThreshold, 4 << 20)
      _ = mallopt(trimThreshold, 16 << 20)
    #endif
  }

  /// Every connection holds a file descriptor; the common default soft limit of 1 024 would
  /// let a thousand idle clients lock everyone else out. The hard limit is the real bound.
  static func raiseOpenFileLimit() {
    #if os(Linux)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = min(limit.rlim_max, 1 << 20)
    _ = setrlimit(resource, &limit)
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
