import Foundation
import Metrics
import Prometheus

/// The process's metrics, kept by swift-metrics and written in Prometheus's text format by
/// swift-prometheus (`GET /metrics`, docs/platform.md "Metrics"): the requests'
/// `http_requests_total` and `http_request_duration_seconds` (by method, route and status, with
/// the framework's names) and the app's own figures below.
///
/// swift-metrics takes one backend per process, so the first use of `shared` installs it,
/// before any handle here is made (a handle made before that would count nowhere).
/// `configure` touches it first thing; several apps in one process (the tests) share it.
final class AppMetrics: Sendable {
  static let shared = AppMetrics()

  let registry: PrometheusCollectorRegistry
  let started = Date()

  /// Time a write waited for its turn at the SQLite writer (GRDB's queue).
  let writeWait: Metrics.Timer
  /// Time a read waited for one of the pool's readers.
  let readWait: Metrics.Timer
  let cacheHits: Metrics.Counter
  let cacheMisses: Metrics.Counter
  let importsStarted: Metrics.Counter
  let importsFinished: Metrics.Counter
  let importsFailed: Metrics.Counter
  let jarRefreshes: Metrics.Counter
  let jarRefreshFailures: Metrics.Counter
  /// Every request's count and duration (`AppResponder`).
  let requests = RequestMetrics()

  private init() {
    registry = PrometheusCollectorRegistry()
    var factory = PrometheusMetricsFactory(registry: registry)
    // From a cached answer (well under a millisecond) to a slow import batch.
    factory.defaultDurationHistogramBuckets = [
      .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
      .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
      .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2),
      .seconds(5), .seconds(10),
    ]
    MetricsSystem.bootstrap(factory)

    writeWait = Metrics.Timer(
      label: "backoffice_db_write_wait_seconds", preferredDisplayUnit: .seconds)
    readWait = Metrics.Timer(
      label: "backoffice_db_read_wait_seconds", preferredDisplayUnit: .seconds)
    cacheHits = Metrics.Counter(
      label: "backoffice_read_cache_lookups_total", dimensions: [("result", "hit")])
    cacheMisses = Metrics.Counter(
      label: "backoffice_read_cache_lookups_total", dimensions: [("result", "miss")])
    importsStarted = Metrics.Counter(label: "backoffice_import_jobs_started_total")
    importsFinished = Metrics.Counter(
      label: "backoffice_import_jobs_ended_total", dimensions: [("outcome", "finished")])
    importsFailed = Metrics.Counter(
      label: "backoffice_import_jobs_ended_total", dimensions: [("outcome", "failed")])
    jarRefreshes = Metrics.Counter(
      label: "backoffice_jar_refreshes_total", dimensions: [("outcome", "ok")])
    jarRefreshFailures = Metrics.Counter(
      label: "backoffice_jar_refreshes_total", dimensions: [("outcome", "failed")])
  }

  /// The registry in Prometheus's text format, with the process's memory, open files and
  /// start time read at this moment.
  func exposition() -> [UInt8] {
    let process = ProcessFigures.read()
    Metrics.Gauge(label: "process_resident_memory_bytes").record(process.residentBytes)
    Metrics.Gauge(label: "process_open_fds").record(process.openFiles)
    Metrics.Gauge(label: "process_start_time_seconds").record(started.timeIntervalSince1970)
    return registry.emitToBuffer()
  }

  /// `body`'s duration recorded in `timer`; the clock is the monotonic one.
  static func time<T>(_ timer: Metrics.Timer, _ body: () async throws -> T) async rethrows -> T {
    let start = DispatchTime.now().uptimeNanoseconds
    defer { timer.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start)) }
    return try await body()
  }
}

/// What the kernel says about this process (Linux's /proc; zeros elsewhere).
struct ProcessFigures {
  var residentBytes = 0
  var openFiles = 0

  static func read() -> ProcessFigures {
    var figures = ProcessFigures()
    if let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
      let fields = statm.split(separator: " ")
      if fields.count > 1, let pages = Int(fields[1]) {
        figures.residentBytes = pages * Int(sysconf(Int32(_SC_PAGESIZE)))
      }
    }
    figures.openFiles =
      (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    return figures
  }
}
