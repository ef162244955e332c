import Foundation

private let nbsp = "\u{00A0}"

/// The texts of a report poster, prepared once per layout.
struct ReportPosterContent: Sendable {
  /// The largest type on the poster.
  static let headline = "Зібрали! Дякуємо"
  /// Shown for a purchase without a title.
  static let untitledPurchase = "Покупка"
  /// Characters of a purpose or title kept before measuring: far more than any poster line
  /// holds, so a 10 000-character text costs no more than a long one.
  static let sourceLimit = 2_000

  struct Purchase: Sendable {
    var title: PreparedText
    /// The title lost its end before measuring, so it must end in "…" on the poster.
    var titleCut: Bool
    /// "— 1 234,50 грн.", one unbreakable word.
    var amount: PreparedText.Word
  }

  var purpose: PreparedText
  var purposeCut: Bool
  /// "Зібрано: 52 300 грн."
  var raised: String
  /// "Витрачено: 48 120,50 грн."
  var spent: String
  var purchases: [Purchase]
  /// "і ще 7 покупок" when more were bought than the poster lists.
  var more: String?

  init(_ input: ReportPosterInput) {
    (purpose, purposeCut) = Self.prepared(input.purpose)
    raised = "Зібрано: " + Self.amount(input.raised)
    spent = "Витрачено: " + Self.amount(input.spent)
    purchases = ReportPosterRenderer.shownPurchases(input.purchases).map { purchase in
      var (title, cut) = Self.prepared(purchase.title)
      // One item, one paragraph: line breaks in a title become spaces.
      title.paragraphs = title.isEmpty ? [] : [title.paragraphs.flatMap { $0 }]
      if title.isEmpty { title = PreparedText(Self.untitledPurchase) }
      let amount = "—" + nbsp + Self.amount(purchase.amount)
      return Purchase(
        title: title, titleCut: cut,
        amount: PreparedText.Word(text: amount, units: PosterFont.units(amount)))
    }
    let hidden = input.purchases.count - purchases.count
    more = hidden > 0 ? "і ще \(hidden) " + Self.purchasesWord(hidden) : nil
  }

  /// "52 300 грн.", held together by no-break spaces.
  static func amount(_ value: Decimal) -> String {
    Hryvnia.formatNumber(value) + nbsp + "грн."
  }

  /// The form of "покупка" that goes with `count`: 1, 21 покупка; 2–4, 22 покупки;
  /// 5–20, 25 покупок (and 11–14, 111 покупок).
  static func purchasesWord(_ count: Int) -> String {
    let lastTwo = abs(count) % 100
    let last = lastTwo % 10
    if (11...14).contains(lastTwo) { return "покупок" }
    if last == 1 { return "покупка" }
    if (2...4).contains(last) { return "покупки" }
    return "покупок"
  }

  /// The text ready for measuring, and whether its end was dropped for length.
  private static func prepared(_ text: String) -> (PreparedText, cut: Bool) {
    guard text.count > sourceLimit else { return (PreparedText(text), false) }
    return (PreparedText(String(text.prefix(sourceLimit))), true)
  }
}

extension TextFitter {
  /// Trailing characters dropped before an ellipsis: "слово,…" reads as "слово…".
  private static let unfinished: Set<Character> = [
    ",", ".", ";", ":", "-", "–", "—", "/", "(", "«", "\"", "'",
  ]

  /// `text` followed by `tail` (an amount, kept whole), wrapped into at most `lines` lines
  /// at `size` without breaking a word. When that fails, or `forceEllipsis` asks for it, the
  /// text ends after the last whole word that leaves room for "…" and the tail; a hyphenated
  /// word counts as one. Only a first word too long for a line is cut between characters.
  static func shortened(
    _ text: PreparedText, tail: PreparedText.Word? = nil, forceEllipsis: Bool = false,
    size: Double, spacing: Double, maxWidth: Double, lines: Int
  ) -> PreparedText {
    let words = text.paragraphs.enumerated().flatMap { index, paragraph in
      paragraph.map { (paragraph: index, word: $0) }
    }
    func assembled(_ kept: [(paragraph: Int, word: PreparedText.Word)]) -> PreparedText {
      var result = text
      result.paragraphs = []
      var current = -1
      for (paragraph, word) in kept {
        if paragraph != current || result.paragraphs.isEmpty {
          result.paragraphs.append([])
          current = paragraph
        }
        result.paragraphs[result.paragraphs.count - 1].append(word)
      }
      if let tail {
        if result.paragraphs.isEmpty { result.paragraphs.append([]) }
        result.paragraphs[result.paragraphs.count - 1].append(tail)
      }
      return result
    }
    func fits(_ candidate: PreparedText) -> Bool {
      wrap(
        candidate, size: size, spacing: spacing, maxWidth: maxWidth, breakWords: false,
        lineLimit: lines) != nil
    }
    let whole = assembled(words)
    if !forceEllipsis, fits(whole) { return whole }

    /// The first `count` words with "…" after the last, its unfinished punctuation dropped.
    func withEllipsis(_ count: Int) -> PreparedText? {
      var kept = Array(words.prefix(count))
      while var last = kept.last {
        var letters = last.word.text
        while let end = letters.last, unfinished.contains(end) { letters.removeLast() }
        guard !letters.isEmpty else {
          kept.removeLast()
          continue
        }
        letters += "…"
        last.word = PreparedText.Word(
          text: letters, units: PosterFont.units(letters), glued: last.word.glued)
        kept[kept.count - 1] = last
        return assembled(kept)
      }
      return nil
    }
    // The most whole words that fit; wrapping fewer words never takes more lines.
    var low = 0
    var high = words.count
    while low < high {
      let middle = (low + high + 1) / 2
      if let candidate = withEllipsis(middle), fits(candidate) {
        low = middle
      } else {
        high = middle - 1
      }
    }
    // Never stop inside a hyphenated word ("FPV-…" of "FPV-дрони").
    while low > 0, low < words.count, words[low].word.glued { low -= 1 }
    if low > 0, let candidate = withEllipsis(low), fits(candidate) { return candidate }

    // Not even the first word fits: keep as many of its characters as leave room for "…".
    guard let first = words.first else { return whole }
    let characters = Array(first.word.text)
    var kept = 0
    var over = characters.count
    while kept < over {
      let middle = (kept + over + 1) / 2
      let piece = String(characters.prefix(middle)) + "…"
      let word = PreparedText.Word(text: piece, units: PosterFont.units(piece))
      if fits(assembled([(first.paragraph, word)])) { kept = middle } else { over = middle - 1 }
    }
    let piece = String(characters.prefix(kept)) + "…"
    return assembled([
      (first.paragraph, PreparedText.Word(text: piece, units: PosterFont.units(piece)))
    ])
  }
}
