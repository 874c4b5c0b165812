#pragma once
// A hash map kept in one flat table with open addressing: linear probing, removal by backward
// shift (no tombstones), doubling when more than 1/Sparseness full (half by default; a sparser
// table makes shorter probe chains and shorter shifts on removal, for a table of few entries
// changed at every access). For per-access bookkeeping on the hot paths
// (issue 19): a node-based std::unordered_map allocates and frees a node per entry; this table
// allocates only when it grows. One key value, `Empty`, marks a free slot and cannot be stored
// (a template argument: a constant compare on every probe).
// `Hash` maps a key to a well-mixed integer whose low bits index the table. Iteration order is
// the table's, so a caller that shows the entries must sort them.
// Users: PointerMap (AtInitiatorPort's outstanding requests) and MshrTable's line index.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpusim {

template <class Key, class Value, class Hash, Key Empty, size_t Sparseness = 2>
class FlatHashMap {
public:
    // `slots` (a power of two) is the starting table size: choose it at least Sparseness times
    // the expected entries and the table never grows.
    explicit FlatHashMap(size_t slots = 16) { rehash(slots); }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    // Adds key -> value; false (and nothing changed) if the key is already there.
    bool insert(Key key, Value value) {
        const size_t h = position(key);
        if (keys_[h] == key) return false;
        keys_[h] = key;
        values_[h] = value;
        if (++size_ * Sparseness > keys_.size()) rehash(keys_.size() * 2);
        return true;
    }
    // The key's value, or null. Valid until the next insert or erase.
    const Value* find(Key key) const {
        const size_t h = position(key);
        return keys_[h] == key ? &values_[h] : nullptr;
    }
    Value* find(Key key) {
        const size_t h = position(key);
        return keys_[h] == key ? &values_[h] : nullptr;
    }
    // Removes the key; false if it was not there.
    bool erase(Key key) {
        Value unused;
        return take(key, unused);
    }
    // Removes the key and hands its value to `out` (one probe where find() then erase() make
    // two); false, and `out` untouched, if it was not there.
    bool take(Key key, Value& out) {
        size_t h = position(key);
        if (keys_[h] != key) return false;
        out = values_[h];
        keys_[h] = Empty;
        --size_;
        // Close the hole: move back each later entry of the probe chain whose home is not
        // cyclically in (h, j].
        for (size_t j = (h + 1) & mask_; keys_[j] != Empty; j = (j + 1) & mask_) {
            const size_t k = home(keys_[j]);
            const bool stays = h <= j ? (h < k && k <= j) : (h < k || k <= j);
            if (stays) continue;
            keys_[h] = keys_[j];
            values_[h] = values_[j];
            keys_[j] = Empty;
            h = j;
        }
        return true;
    }
    // Calls f(key, value) for every entry, in table order.
    template <class F>
    void forEach(F&& f) const {
        for (size_t i = 0; i < keys_.size(); ++i)
            if (keys_[i] != Empty) f(keys_[i], values_[i]);
    }
    size_t slots() const { return keys_.size(); }

private:
    size_t home(Key key) const { return size_t(Hash{}(key)) & mask_; }
    // The slot holding `key`, or the empty slot where its probe ends.
    size_t position(Key key) const {
        size_t h = home(key);
        while (keys_[h] != Empty && keys_[h] != key) h = (h + 1) & mask_;
        return h;
    }
    void rehash(size_t slots) {
        std::vector<Key> keys(slots, Empty);
        std::vector<Value> values(slots, Value{});
        keys.swap(keys_);
        values.swap(values_);
        mask_ = slots - 1;
        for (size_t i = 0; i < keys.size(); ++i)
            if (keys[i] != Empty) {
                const size_t h = position(keys[i]);
                keys_[h] = keys[i];
                values_[h] = values[i];
            }
    }

    std::vector<Key> keys_;
    std::vector<Value> values_;
    size_t mask_ = 0;
    size_t size_ = 0;
};

} // namespace gpusim
