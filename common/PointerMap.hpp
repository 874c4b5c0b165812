#pragma once
// A map from a non-null pointer to a 64-bit value, kept in one flat table with open addressing
// (linear probing, removal by backward shift, no tombstones) that doubles when half full. For
// per-transaction bookkeeping (AtInitiatorPort's outstanding requests): a node-based
// std::unordered_map allocates and frees a node per transaction, about 2 % of a run's host
// instructions (issue 19); this table allocates only when it grows. Iteration order is the
// table's, so a caller that shows the entries must sort them.
#include <cstdint>
#include <vector>

namespace gpusim {

class PointerMap {
public:
    PointerMap() { rehash(kInitialSize); }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    // Adds key -> value; false (and nothing changed) if the key is already there.
    bool insert(const void* key, uint64_t value) {
        const size_t h = position(key);
        if (keys_[h] == key) return false;
        keys_[h] = key;
        values_[h] = value;
        if (++size_ * 2 > keys_.size()) rehash(keys_.size() * 2);
        return true;
    }
    // The key's value, or null. Valid until the next insert or erase.
    const uint64_t* find(const void* key) const {
        const size_t h = position(key);
        return keys_[h] == key ? &values_[h] : nullptr;
    }
    // Removes the key; false if it was not there.
    bool erase(const void* key) {
        size_t h = position(key);
        if (keys_[h] != key) return false;
        keys_[h] = nullptr;
        --size_;
        // Close the hole: move back each later entry of the probe chain whose home is not
        // cyclically in (h, j].
        for (size_t j = (h + 1) & mask_; keys_[j]; j = (j + 1) & mask_) {
            const size_t k = home(keys_[j]);
            const bool stays = h <= j ? (h < k && k <= j) : (h < k || k <= j);
            if (stays) continue;
            keys_[h] = keys_[j];
            values_[h] = values_[j];
            keys_[j] = nullptr;
            h = j;
        }
        return true;
    }
    // Calls f(key, value) for every entry, in table order.
    template <class F>
    void forEach(F&& f) const {
        for (size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i]) f(keys_[i], values_[i]);
    }

private:
    static constexpr size_t kInitialSize = 16;  // a power of two
    size_t home(const void* key) const {
        // Fibonacci hashing of the address; the low bits of an allocation are mostly zero.
        return size_t((uint64_t(reinterpret_cast<uintptr_t>(key)) * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
    }
    // The slot holding `key`, or the empty slot where its probe ends.
    size_t position(const void* key) const {
        size_t h = home(key);
        while (keys_[h] && keys_[h] != key) h = (h + 1) & mask_;
        return h;
    }
    void rehash(size_t slots) {
        std::vector<const void*> keys(slots, nullptr);
        std::vector<uint64_t> values(slots, 0);
        keys.swap(keys_);
        values.swap(values_);
        mask_ = slots - 1;
        for (size_t i = 0; i < keys.size(); ++i)
            if (keys[i]) {
                const size_t h = position(keys[i]);
                keys_[h] = keys[i];
                values_[h] = values[i];
            }
    }

    std::vector<const void*> keys_;  // null: empty slot
    std::vector<uint64_t> values_;
    size_t mask_ = 0;
    size_t size_ = 0;
};

} // namespace gpusim
