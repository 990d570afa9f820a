package io.jobinfo.store.seatunnel.dropin;

import com.hazelcast.spi.impl.NodeEngine;
import com.hazelcast.spi.impl.servicemanager.ServiceDescriptor;
import com.hazelcast.spi.impl.servicemanager.ServiceDescriptorProvider;

/**
 * Hazelcast's hook for services that come with a jar ({@code META-INF/services/
 * com.hazelcast.spi.impl.servicemanager.ServiceDescriptorProvider}), read on members only, while the member builds its
 * services and before it joins. {@link DropInService#create} runs there; an exception it throws is not caught by
 * Hazelcast, so the member does not start.
 */
public final class DropInServiceProvider implements ServiceDescriptorProvider {

    @Override
    public ServiceDescriptor[] createServiceDescriptors() {
        return new ServiceDescriptor[] {new ServiceDescriptor() {
            @Override
            public String getServiceName() {
                return DropInService.SERVICE_NAME;
            }

            @Override
            public Object getService(NodeEngine nodeEngine) {
                return DropInService.create(nodeEngine, System.getProperties());
            }
        }};
    }
}
