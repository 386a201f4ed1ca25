/// `cache-stress [options]` runs ``CacheStress``; `cache-stress crash-writer [options]` runs ``CrashWriter``.
@main
enum CacheStressMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "crash-writer" {
            await CrashWriter.main(Array(arguments.dropFirst()))
        } else {
            await CacheStress.main(arguments)
        }
    }
}
