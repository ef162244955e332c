extension String {
  /// True when no character of the text can be seen: it is empty, or only whitespace and control
  /// characters. Such a name counts as blank everywhere a name is required.
  public var hasNothingVisible: Bool {
    unicodeScalars.allSatisfy {
      $0.properties.isWhitespace || $0.properties.generalCategory == .control
    }
  }
}
