//! Which answers a node still waits for (Kafka 4.3.1's `RequestManager`): every request a node
//! sends carries a correlation id, new for each request, that its response echoes; per
//! destination one request is in flight, and a response is handled only if it answers that one
//! (`KafkaRaftClient.handleInboundMessage`: "Ignoring response since it is no longer needed").
//! A second copy of a response, an answer to a request sent again since, or one to a request of
//! an earlier state is dropped unread: every state transition forgets what was in flight
//! (`KafkaRaftClient.resetConnections`, `RequestManager.resetAll`).

use crate::util::small_map::SmallMap;

use super::NodeId;

/// The correlation ids of the requests in flight, per destination.
#[derive(Clone, Debug, Default)]
pub struct Requests {
    next: u64,
    in_flight: SmallMap<NodeId, u64>,
}

impl Requests {
    /// A request to `to` is sent (`RequestManager.onRequestSent`): its correlation id, now the one
    /// in flight to `to`.
    pub(super) fn sent(&mut self, to: NodeId) -> u64 {
        self.next += 1;
        self.in_flight.insert(to, self.next);
        self.next
    }

    /// Whether a response from `from` echoing `correlation` answers the request in flight there
    /// (`RequestManager.isResponseExpected`).
    pub(super) fn expects(&self, from: NodeId, correlation: u64) -> bool {
        self.in_flight.get(&from) == Some(&correlation)
    }

    /// A response from `from` echoing `correlation` arrived: whether it is expected; if so, none
    /// is in flight there any more (`onResponseResult`).
    pub(super) fn answered(&mut self, from: NodeId, correlation: u64) -> bool {
        let expected = self.expects(from, correlation);
        if expected {
            self.in_flight.remove(&from);
        }
        expected
    }

    /// A state transition: no answer in flight is wanted any more (`RequestManager.resetAll`).
    pub(super) fn reset(&mut self) {
        self.in_flight.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Requests;

    #[test]
    fn only_the_answer_to_the_request_in_flight_is_handled_once() {
        let mut requests = Requests::default();
        let first = requests.sent(2);
        let again = requests.sent(2);
        let other = requests.sent(3);
        assert!(!requests.answered(2, first), "a request sent again: the first one's answer is late");
        assert!(requests.answered(2, again));
        assert!(!requests.answered(2, again), "its second copy is not wanted");
        assert!(!requests.answered(4, other), "from where it was not sent");
        requests.reset();
        assert!(!requests.answered(3, other), "a transition forgets what was in flight");
    }
}
