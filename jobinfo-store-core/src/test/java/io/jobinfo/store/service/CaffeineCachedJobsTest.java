package io.jobinfo.store.service;

/** The contract on {@link CacheLookup#CAFFEINE}: Caffeine alone. */
class CaffeineCachedJobsTest extends CachedJobsContractTest {

    @Override
    CacheLookup lookup() {
        return CacheLookup.CAFFEINE;
    }
}
