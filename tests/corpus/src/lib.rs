//! Clients and catalogs for the 40 real APIs of the dev corpus and 27 Google Discovery
//! documents, compiled (and linted) as a user's crate would compile them.

include!(concat!(env!("OUT_DIR"), "/corpus.rs"));

/// Real specs' streams and files, pinned by type (checked whenever this crate is):
/// Clever Cloud's server-sent event streams decode each event's data into the type its
/// `schema` names, and PRSS's `application/octet-stream` downloads are bytes, or a stream
/// of them.
#[allow(dead_code)]
async fn streams_and_files_are_typed(
    clever: &spec_clever_cloud_com_api::clever_cloud_com_api::Client,
    prss: &spec_prss_org_api::prss_org_api::Client,
) -> Result<(), toolwright::Error> {
    use spec_clever_cloud_com_api::clever_cloud_com_api as clever_cloud;
    use spec_prss_org_api::prss_org_api;
    let input = clever_cloud::GetNetworkGroupStreamInput::new("orga", "ng");
    let _: toolwright::stream::Events<clever_cloud::NetworkGroup> =
        clever.get_network_group_stream(&input).await?;
    let input = prss_org_api::DownloadFileContentInput::new(7);
    let _: toolwright::Bytes = prss.download_file_content(&input).await?;
    let _: toolwright::stream::ByteStream = prss.download_file_content_stream(&input).await?;
    Ok(())
}
