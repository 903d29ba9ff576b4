//! The load tool's own client for the two calls of a move. It sends the
//! real requests and receives the service's whole replies, but decodes only
//! the fields a random player reads (prost skips the rest without building
//! them), so the tool spends less of the two cores it shares with the
//! service and the database. Real players decode on their own machines.

use skit_proto::v1::{Action, GetViewRequest, SubmitMoveRequest};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::Channel;
use tonic_prost::ProstCodec;

const GET_VIEW: &str = "/skitgubbe.v1.GameService/GetView";
const SUBMIT_MOVE: &str = "/skitgubbe.v1.GameService/SubmitMove";

/// The fields of `skitgubbe.v1.View` a random player reads (same tags).
#[derive(Clone, PartialEq, prost::Message)]
pub struct SeatView {
    #[prost(uint64, tag = "2")]
    pub version: u64,
    #[prost(int32, tag = "3")]
    pub phase: i32,
    #[prost(uint32, repeated, tag = "11")]
    pub to_act: Vec<u32>,
    #[prost(message, repeated, tag = "14")]
    pub legal_actions: Vec<Action>,
}

/// `skitgubbe.v1.SubmitMoveResponse` with a [`SeatView`].
#[derive(Clone, PartialEq, prost::Message)]
pub struct Moved {
    #[prost(uint64, tag = "1")]
    pub version: u64,
    #[prost(message, optional, tag = "2")]
    pub view: Option<SeatView>,
}

/// GetView and SubmitMove over one channel.
#[derive(Debug, Clone)]
pub struct LeanClient {
    grpc: tonic::client::Grpc<Channel>,
}

impl LeanClient {
    pub fn new(channel: Channel) -> Self {
        Self {
            grpc: tonic::client::Grpc::new(channel),
        }
    }

    pub async fn get_view(
        &mut self,
        request: tonic::Request<GetViewRequest>,
    ) -> Result<SeatView, tonic::Status> {
        self.unary(request, GET_VIEW).await
    }

    pub async fn submit_move(
        &mut self,
        request: tonic::Request<SubmitMoveRequest>,
    ) -> Result<Moved, tonic::Status> {
        self.unary(request, SUBMIT_MOVE).await
    }

    async fn unary<Q, A>(
        &mut self,
        request: tonic::Request<Q>,
        path: &'static str,
    ) -> Result<A, tonic::Status>
    where
        Q: prost::Message + Send + Sync + 'static,
        A: prost::Message + Default + Send + Sync + 'static,
    {
        self.grpc
            .ready()
            .await
            .map_err(|e| tonic::Status::unavailable(format!("service not ready: {e}")))?;
        let codec = ProstCodec::<Q, A>::default();
        let reply = self
            .grpc
            .unary(request, PathAndQuery::from_static(path), codec)
            .await?;
        Ok(reply.into_inner())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use prost::Message;
    use skit_proto::v1::{Phase, PlayAction, SubmitMoveResponse, View, action::Kind};

    use super::*;

    /// A full view, decoded lean, keeps exactly the fields players read.
    #[test]
    fn lean_messages_read_the_fields_of_the_real_ones() {
        let play = Action {
            kind: Some(Kind::Play(PlayAction {
                cards: vec!["7C".into()],
            })),
        };
        let view = View {
            game_id: "g".into(),
            version: 41,
            phase: Phase::Two as i32,
            to_act: vec![2],
            hand: vec!["7C".into(), "AS".into()],
            legal_actions: vec![play.clone()],
            stock_size: 9,
            ..Default::default()
        };
        let reply = SubmitMoveResponse {
            version: 42,
            view: Some(view),
        };
        let lean = Moved::decode(reply.encode_to_vec().as_slice()).unwrap();
        assert_eq!(
            lean,
            Moved {
                version: 42,
                view: Some(SeatView {
                    version: 41,
                    phase: Phase::Two as i32,
                    to_act: vec![2],
                    legal_actions: vec![play],
                }),
            }
        );
    }
}
