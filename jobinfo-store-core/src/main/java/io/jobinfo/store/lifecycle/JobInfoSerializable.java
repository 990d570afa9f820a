package io.jobinfo.store.lifecycle;

import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

/** This library's Hazelcast values and processors: all of {@link JobInfoSerialization#FACTORY_ID}'s factory. */
interface JobInfoSerializable extends IdentifiedDataSerializable {

    @Override
    default int getFactoryId() {
        return JobInfoSerialization.FACTORY_ID;
    }
}
