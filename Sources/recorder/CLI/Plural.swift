/// `1 interaction`, `2 interactions`: counts in messages read as English. `plural` defaults to `noun` + `s`.
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
