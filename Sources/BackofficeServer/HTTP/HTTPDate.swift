import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Vapor

/// Request ids without a random number per request: a per-process prefix and a counter.
enum RequestIDs {
  private static let prefix = String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
  private static let counter = NIOLockedValueBox<UInt64>(0)

  static func next() -> String {
    let number = counter.withLockedValue { value -> UInt64 in
      value &+= 1
      return value
    }
    return prefix + "-" + String(number, radix: 36)
  }
}

/// The `Date` header, formatted once a second per thread.
enum HTTPDate {
  private final class Cache {
    var second = -1
    var text = ""
  }

  // Each thread reads and writes only its own value.
  private nonisolated(unsafe) static let cache = ThreadSpecificVariable<Cache>()

  static func now() -> String {
    let now = time(nil)
    let cache: Cache
    if let existing = Self.cache.currentValue {
      cache = existing
    } else {
      cache = Cache()
      Self.cache.currentValue = cache
    }
    if cache.second != now {
      cache.second = now
      cache.text = format(now)
    }
    return cache.text
  }

  private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  static func format(_ seconds: Int) -> String {
    var value = time_t(seconds)
    var parts = tm()
    gmtime_r(&value, &parts)
    func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
      + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}
