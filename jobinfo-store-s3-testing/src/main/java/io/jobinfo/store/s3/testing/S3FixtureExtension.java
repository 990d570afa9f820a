package io.jobinfo.store.s3.testing;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension handing tests the JVM-wide {@link S3Fixture}: {@code @ExtendWith(S3FixtureExtension.class)}, then
 * take an {@code S3Fixture} parameter in a constructor, a lifecycle method or a test method. Starts the fixture
 * before the class's first test: if no endpoint can be started, every test of the class fails at once with the
 * {@link IllegalStateException} of {@link S3Fixture#shared()}, naming the cause.
 */
public final class S3FixtureExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        S3Fixture.shared();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == S3Fixture.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return S3Fixture.shared();
    }
}
