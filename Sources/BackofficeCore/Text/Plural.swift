/// Words that agree with a count, by each language's rules (CLDR's cardinal plural rules for
/// whole numbers).
public enum Plural {
  /// English: "1 product", "0 products", "21 products".
  public static func english(_ count: Int, one: String, other: String) -> String {
    count == 1 ? one : other
  }

  /// Ukrainian has three forms for whole numbers: *one* for 1, 21, 31… (not 11), *few* for
  /// 2–4, 22–24… (not 12–14), *many* for the rest: "1 збір", "3 збори", "5 зборів", "11 зборів".
  public static func ukrainian(_ count: Int, one: String, few: String, many: String) -> String {
    let magnitude = count.magnitude
    let lastTwo = magnitude % 100
    let last = magnitude % 10
    if last == 1 && lastTwo != 11 { return one }
    if (2...4).contains(last) && !(12...14).contains(lastTwo) { return few }
    return many
  }
}
