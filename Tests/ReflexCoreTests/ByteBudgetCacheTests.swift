import ReflexCore
import Testing

/// Review's caches stay inside their budget, the least recently used given up first.
@Suite struct ByteBudgetCacheTests {
    @Test func theLeastRecentlyUsedGoesFirstAndTheBudgetHolds() {
        var cache = ByteBudgetCache<Int>(budgetBytes: 100)
        cache.store(1, bytes: 40, for: "a")
        cache.store(2, bytes: 40, for: "b")
        #expect(cache.value(for: "a") == 1)  // a is now the most recently used
        cache.store(3, bytes: 40, for: "c")
        #expect(cache.value(for: "b") == nil && cache.value(for: "a") == 1 && cache.value(for: "c") == 3)
        #expect(cache.bytesHeld == 80 && cache.count == 2)
        // The same key again replaces, never counts twice.
        cache.store(4, bytes: 50, for: "c")
        #expect(cache.bytesHeld == 90 && cache.value(for: "c") == 4)
        cache.remove("a")
        #expect(cache.bytesHeld == 50 && cache.value(for: "a") == nil)
        // One value larger than the budget alone is kept (the picture on screen), alone.
        cache.store(5, bytes: 500, for: "big")
        #expect(cache.count == 1 && cache.bytesHeld == 500 && cache.value(for: "big") == 5)
    }

    /// A thousand pictures browsed through, each a 1067×800 XRGB picture: the cache never
    /// holds more than its budget.
    @Test func browsingAThousandPicturesHoldsTheBudget() {
        let picture = 1067 * 800 * 4
        var cache = ByteBudgetCache<Int>(budgetBytes: 8 * picture)
        for index in 0..<1000 {
            cache.store(index, bytes: picture, for: "RFLX\(index)")
            #expect(cache.bytesHeld <= 8 * picture)
        }
        #expect(cache.count == 8 && cache.value(for: "RFLX999") == 999 && cache.value(for: "RFLX991") == nil)
    }
}
