package io.redlock.spring.test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** An application with the starter and nothing else. */
@SpringBootConfiguration
@EnableAutoConfiguration
class TestApp {
}
